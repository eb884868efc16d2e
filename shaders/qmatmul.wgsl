// Quantized matmul for the rollout/decode path: y[M, N] = x[M, K] · dequant(W[N, K])ᵀ (+ y when accumulate),
// dequantizing int8/int4 codes on the fly (layout: src/model/quant.ts). Each invocation computes TM rows of x
// against 4 output features, so every unpacked code is reused TM times and every x value 4 times; block scales are
// applied once per 32-column block to per-block partial sums.
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

struct Codes { lo: vec4<f32>, hi: vec4<f32> }

fn int8x4(v: u32) -> vec4<f32> {
  // Arithmetic right shift of the left-aligned byte sign-extends it.
  return vec4<f32>(bitcast<vec4<i32>>(vec4<u32>(v) << vec4<u32>(24u, 16u, 8u, 0u)) >> vec4<u32>(24u));
}

fn int4x4(v: u32, shift: u32) -> vec4<f32> {
  let n = (vec4<u32>(v) >> (vec4<u32>(0u, 4u, 8u, 12u) + shift)) & vec4<u32>(15u);
  return vec4<f32>(n) - 8.0;
}

// Codes for columns [8*it, 8*it + 8) of a block starting at word `base`.
fn codes(base: u32, it: u32) -> Codes {
  if (FORMAT == 2u) {
    let v = w[base + it];
    return Codes(int4x4(v, 0u), int4x4(v, 16u));
  }
  return Codes(int8x4(w[base + 2u * it]), int8x4(w[base + 2u * it + 1u]));
}

// Four x values from column k, clamped to the row's last element: the zero codes padding W's last block make
// the clamped values' products vanish, and no read leaves the buffer.
fn x4(rowBase: u32, k: u32, last: u32) -> vec4<f32> {
  return vec4<f32>(x[rowBase + min(k, last)], x[rowBase + min(k + 1u, last)], x[rowBase + min(k + 2u, last)],
                   x[rowBase + min(k + 3u, last)]);
}

fn dot4(xlo: vec4<f32>, xhi: vec4<f32>, c0: Codes, c1: Codes, c2: Codes, c3: Codes) -> vec4<f32> {
  return vec4<f32>(dot(xlo, c0.lo) + dot(xhi, c0.hi), dot(xlo, c1.lo) + dot(xhi, c1.hi),
                   dot(xlo, c2.lo) + dot(xhi, c2.hi), dot(xlo, c3.lo) + dot(xhi, c3.hi));
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
  let xb0 = u.xOff + row0 * u.K;
  let xb1 = u.xOff + min(row0 + 1u, lastM) * u.K;
  let xb2 = u.xOff + min(row0 + 2u, lastM) * u.K;
  let xb3 = u.xOff + min(row0 + 3u, lastM) * u.K;
  let xb4 = u.xOff + min(row0 + 4u, lastM) * u.K;
  let xb5 = u.xOff + min(row0 + 5u, lastM) * u.K;
  let xb6 = u.xOff + min(row0 + 6u, lastM) * u.K;
  let xb7 = u.xOff + min(row0 + 7u, lastM) * u.K;
  var wordsPerBlock = 8u;
  if (FORMAT == 2u) { wordsPerBlock = 4u; }
  var acc0 = vec4<f32>(0.0);
  var acc1 = vec4<f32>(0.0);
  var acc2 = vec4<f32>(0.0);
  var acc3 = vec4<f32>(0.0);
  var acc4 = vec4<f32>(0.0);
  var acc5 = vec4<f32>(0.0);
  var acc6 = vec4<f32>(0.0);
  var acc7 = vec4<f32>(0.0);
  let blocks = (u.K + 31u) / 32u;
  for (var kb = 0u; kb < blocks; kb++) {
    let wo = kb * wordsPerBlock;
    let w0 = f0 * u.wordsPerRow + wo;
    let w1 = f1 * u.wordsPerRow + wo;
    let w2 = f2 * u.wordsPerRow + wo;
    let w3 = f3 * u.wordsPerRow + wo;
    var p0 = vec4<f32>(0.0);
    var p1 = vec4<f32>(0.0);
    var p2 = vec4<f32>(0.0);
    var p3 = vec4<f32>(0.0);
    var p4 = vec4<f32>(0.0);
    var p5 = vec4<f32>(0.0);
    var p6 = vec4<f32>(0.0);
    var p7 = vec4<f32>(0.0);
    for (var it = 0u; it < 4u; it++) {
      let k = kb * 32u + it * 8u;
      let c0 = codes(w0, it);
      let c1 = codes(w1, it);
      let c2 = codes(w2, it);
      let c3 = codes(w3, it);
      p0 += dot4(x4(xb0, k, lastK), x4(xb0, k + 4u, lastK), c0, c1, c2, c3);
      if (TM > 1u) { p1 += dot4(x4(xb1, k, lastK), x4(xb1, k + 4u, lastK), c0, c1, c2, c3); }
      if (TM > 2u) {
        p2 += dot4(x4(xb2, k, lastK), x4(xb2, k + 4u, lastK), c0, c1, c2, c3);
        p3 += dot4(x4(xb3, k, lastK), x4(xb3, k + 4u, lastK), c0, c1, c2, c3);
      }
      if (TM > 4u) {
        p4 += dot4(x4(xb4, k, lastK), x4(xb4, k + 4u, lastK), c0, c1, c2, c3);
        p5 += dot4(x4(xb5, k, lastK), x4(xb5, k + 4u, lastK), c0, c1, c2, c3);
        p6 += dot4(x4(xb6, k, lastK), x4(xb6, k + 4u, lastK), c0, c1, c2, c3);
        p7 += dot4(x4(xb7, k, lastK), x4(xb7, k + 4u, lastK), c0, c1, c2, c3);
      }
    }
    if (FORMAT == 0u) {
      acc0 += p0;
      acc1 += p1;
      acc2 += p2;
      acc3 += p3;
      acc4 += p4;
      acc5 += p5;
      acc6 += p6;
      acc7 += p7;
    } else {
      let sv = vec4<f32>(s[f0 * u.scalesPerRow + kb], s[f1 * u.scalesPerRow + kb], s[f2 * u.scalesPerRow + kb],
                         s[f3 * u.scalesPerRow + kb]);
      acc0 += p0 * sv;
      acc1 += p1 * sv;
      acc2 += p2 * sv;
      acc3 += p3 * sv;
      acc4 += p4 * sv;
      acc5 += p5 * sv;
      acc6 += p6 * sv;
      acc7 += p7 * sv;
    }
  }
  if (FORMAT == 0u) {
    let sv = vec4<f32>(s[f0], s[f1], s[f2], s[f3]);
    acc0 *= sv;
    acc1 *= sv;
    acc2 *= sv;
    acc3 *= sv;
    acc4 *= sv;
    acc5 *= sv;
    acc6 *= sv;
    acc7 *= sv;
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
