// Quantized matmul for the rollout/decode path: y[M, N] = x[M, K] · dequant(W[N, K])ᵀ (+ y when accumulate),
// dequantizing int8/int4 codes on the fly (layout: src/model/quant.ts). Each invocation computes TM rows of x
// against 4 output features: every code is unpacked (and block-scaled) once and reused TM times, every x value
// is reused 4 times. Codes are consumed 4 columns at a time to keep few values live: on SwiftShader, register
// pressure (spills) rather than arithmetic decides this kernel's speed.
struct U { M: u32, N: u32, K: u32, wordsPerRow: u32, scalesPerRow: u32, xOff: u32, yOff: u32, beta: f32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> w: array<u32>;
@group(0) @binding(3) var<storage, read> s: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;

override WG: u32 = 64;
// 0 int8 per-row scales, 1 int8 block-32 scales, 2 int4 block-32 scales.
override FORMAT: u32 = 0;
// Rows of x per invocation: 1, 2, 4 or 8 (constant per pipeline, so unused rows compile away).
override TM: u32 = 1;

fn int8x4(v: u32) -> vec4<f32> {
  // Arithmetic right shift of the left-aligned byte sign-extends it.
  return vec4<f32>(bitcast<vec4<i32>>(vec4<u32>(v) << vec4<u32>(24u, 16u, 8u, 0u)) >> vec4<u32>(24u));
}

fn int4x4(v: u32, shift: u32) -> vec4<f32> {
  let n = (vec4<u32>(v) >> (vec4<u32>(0u, 4u, 8u, 12u) + shift)) & vec4<u32>(15u);
  return vec4<f32>(n) - 8.0;
}

// Four x values from column k, clamped to the row's last element: the zero codes padding W's last block make
// the clamped values' products vanish, and no read leaves the buffer.
fn x4(rowBase: u32, k: u32, last: u32) -> vec4<f32> {
  return vec4<f32>(x[rowBase + min(k, last)], x[rowBase + min(k + 1u, last)], x[rowBase + min(k + 2u, last)],
                   x[rowBase + min(k + 3u, last)]);
}

fn mac(acc: vec4<f32>, xv: vec4<f32>, q0: vec4<f32>, q1: vec4<f32>, q2: vec4<f32>, q3: vec4<f32>) -> vec4<f32> {
  return acc + vec4<f32>(dot(xv, q0), dot(xv, q1), dot(xv, q2), dot(xv, q3));
}

fn store(row: u32, n0: u32, v: vec4<f32>) {
  if (row >= u.M) { return; }
  let base = u.yOff + row * u.N + n0;
  for (var j = 0u; j < 4u; j++) {
    if (n0 + j < u.N) {
      if (u.beta == 0.0) { y[base + j] = v[j]; } else { y[base + j] = v[j] + u.beta * y[base + j]; }
    }
  }
}

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let n0 = gid.x * 4u;
  let row0 = gid.y * TM;
  if (n0 >= u.N || row0 >= u.M) { return; }
  let lastN = u.N - 1u;
  let f0 = n0;
  let f1 = min(n0 + 1u, lastN);
  let f2 = min(n0 + 2u, lastN);
  let f3 = min(n0 + 3u, lastN);
  let lastK = u.K - 1u;
  let lastM = u.M - 1u;
  let xb0 = u.xOff + min(row0 + 0u, lastM) * u.K;
  let xb1 = u.xOff + min(row0 + 1u, lastM) * u.K;
  let xb2 = u.xOff + min(row0 + 2u, lastM) * u.K;
  let xb3 = u.xOff + min(row0 + 3u, lastM) * u.K;
  let xb4 = u.xOff + min(row0 + 4u, lastM) * u.K;
  let xb5 = u.xOff + min(row0 + 5u, lastM) * u.K;
  let xb6 = u.xOff + min(row0 + 6u, lastM) * u.K;
  let xb7 = u.xOff + min(row0 + 7u, lastM) * u.K;
  var acc0 = vec4<f32>(0.0);
  var acc1 = vec4<f32>(0.0);
  var acc2 = vec4<f32>(0.0);
  var acc3 = vec4<f32>(0.0);
  var acc4 = vec4<f32>(0.0);
  var acc5 = vec4<f32>(0.0);
  var acc6 = vec4<f32>(0.0);
  var acc7 = vec4<f32>(0.0);
  var wordsPerBlock = 8u;
  if (FORMAT == 2u) { wordsPerBlock = 4u; }
  let blocks = (u.K + 31u) / 32u;
  for (var kb = 0u; kb < blocks; kb++) {
    let wo = kb * wordsPerBlock;
    let w0 = f0 * u.wordsPerRow + wo;
    let w1 = f1 * u.wordsPerRow + wo;
    let w2 = f2 * u.wordsPerRow + wo;
    let w3 = f3 * u.wordsPerRow + wo;
    var sv = vec4<f32>(1.0);
    if (FORMAT != 0u) {
      sv = vec4<f32>(s[f0 * u.scalesPerRow + kb], s[f1 * u.scalesPerRow + kb], s[f2 * u.scalesPerRow + kb],
                     s[f3 * u.scalesPerRow + kb]);
    }
    for (var it = 0u; it < 4u; it++) {
      let k = kb * 32u + it * 8u;
      // Columns k..k+3.
      var v0: u32;
      var v1: u32;
      var v2: u32;
      var v3: u32;
      var q0: vec4<f32>;
      var q1: vec4<f32>;
      var q2: vec4<f32>;
      var q3: vec4<f32>;
      if (FORMAT == 2u) {
        v0 = w[w0 + it];
        v1 = w[w1 + it];
        v2 = w[w2 + it];
        v3 = w[w3 + it];
        q0 = int4x4(v0, 0u) * sv.x;
        q1 = int4x4(v1, 0u) * sv.y;
        q2 = int4x4(v2, 0u) * sv.z;
        q3 = int4x4(v3, 0u) * sv.w;
      } else {
        q0 = int8x4(w[w0 + 2u * it]) * sv.x;
        q1 = int8x4(w[w1 + 2u * it]) * sv.y;
        q2 = int8x4(w[w2 + 2u * it]) * sv.z;
        q3 = int8x4(w[w3 + 2u * it]) * sv.w;
      }
      acc0 = mac(acc0, x4(xb0, k, lastK), q0, q1, q2, q3);
      if (TM > 1u) { acc1 = mac(acc1, x4(xb1, k, lastK), q0, q1, q2, q3); }
      if (TM > 2u) {
        acc2 = mac(acc2, x4(xb2, k, lastK), q0, q1, q2, q3);
        acc3 = mac(acc3, x4(xb3, k, lastK), q0, q1, q2, q3);
      }
      if (TM > 4u) {
        acc4 = mac(acc4, x4(xb4, k, lastK), q0, q1, q2, q3);
        acc5 = mac(acc5, x4(xb5, k, lastK), q0, q1, q2, q3);
        acc6 = mac(acc6, x4(xb6, k, lastK), q0, q1, q2, q3);
        acc7 = mac(acc7, x4(xb7, k, lastK), q0, q1, q2, q3);
      }
      // Columns k+4..k+7.
      if (FORMAT == 2u) {
        q0 = int4x4(v0, 16u) * sv.x;
        q1 = int4x4(v1, 16u) * sv.y;
        q2 = int4x4(v2, 16u) * sv.z;
        q3 = int4x4(v3, 16u) * sv.w;
      } else {
        q0 = int8x4(w[w0 + 2u * it + 1u]) * sv.x;
        q1 = int8x4(w[w1 + 2u * it + 1u]) * sv.y;
        q2 = int8x4(w[w2 + 2u * it + 1u]) * sv.z;
        q3 = int8x4(w[w3 + 2u * it + 1u]) * sv.w;
      }
      acc0 = mac(acc0, x4(xb0, k + 4u, lastK), q0, q1, q2, q3);
      if (TM > 1u) { acc1 = mac(acc1, x4(xb1, k + 4u, lastK), q0, q1, q2, q3); }
      if (TM > 2u) {
        acc2 = mac(acc2, x4(xb2, k + 4u, lastK), q0, q1, q2, q3);
        acc3 = mac(acc3, x4(xb3, k + 4u, lastK), q0, q1, q2, q3);
      }
      if (TM > 4u) {
        acc4 = mac(acc4, x4(xb4, k + 4u, lastK), q0, q1, q2, q3);
        acc5 = mac(acc5, x4(xb5, k + 4u, lastK), q0, q1, q2, q3);
        acc6 = mac(acc6, x4(xb6, k + 4u, lastK), q0, q1, q2, q3);
        acc7 = mac(acc7, x4(xb7, k + 4u, lastK), q0, q1, q2, q3);
      }
    }
  }
  if (FORMAT == 0u) {
    let rs = vec4<f32>(s[f0], s[f1], s[f2], s[f3]);
    acc0 *= rs;
    acc1 *= rs;
    acc2 *= rs;
    acc3 *= rs;
    acc4 *= rs;
    acc5 *= rs;
    acc6 *= rs;
    acc7 *= rs;
  }
  store(row0, n0, acc0);
  if (TM > 1u) { store(row0 + 1u, n0, acc1); }
  if (TM > 2u) {
    store(row0 + 2u, n0, acc2);
    store(row0 + 3u, n0, acc3);
  }
  if (TM > 4u) {
    store(row0 + 4u, n0, acc4);
    store(row0 + 5u, n0, acc5);
    store(row0 + 6u, n0, acc6);
    store(row0 + 7u, n0, acc7);
  }
}
