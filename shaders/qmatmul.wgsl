// Quantized matmul for the rollout/decode path: y[M, N] = x[M, K] · dequant(W[N, K])ᵀ (+ y when accumulate),
// dequantizing int8/int4 codes on the fly (layout: src/gpu/quant.ts). Each invocation computes TM rows of x
// against NF output features: every code is unpacked (and block-scaled) once and reused TM times, every x value
// NF times. On SwiftShader every storage load is a per-lane gather and integer shifts are slow, so x reuse (NF = 8),
// code reuse (TM = 8) and shift-free unpacking decide the speed; codes are consumed 4 columns at a time to keep few
// values live. All invocations of a
// workgroup share gid.y, hence the same x rows: that is what lets a quad share x loads.
// Accumulators: a<r> holds row r's features 0..3, h<r> its features 4..7 (NF = 8 only).
// (common/store_tile.wgsl is appended.)
struct U { M: u32, N: u32, K: u32, wordsPerRow: u32, scalesPerRow: u32, inOff: u32, outOff: u32, beta: f32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> w: array<u32>;
@group(0) @binding(3) var<storage, read> s: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;

override WG: u32 = 64;
// 0 int8 per-row scales, 1 int8 block-32 scales, 2 int4 block-32 scales.
override FORMAT: u32 = 0;
// Rows of x per invocation (1, 2, 4 or 8) and output features (4 or 8); constant per pipeline, so unused parts
// compile away.
override TM: u32 = 1;
override NF: u32 = 4;

// Codes of word v as floats, up to a per-format factor that main() folds into the scales: int8 bytes through
// unpack4x8snorm (x127), int4 nibbles through unpack4x8unorm of the masked word (x255 for the even nibbles of
// half 0, x255/16 for the odd nibbles of half 1), minus the +8 offset. The builtins avoid WGSL shifts, which cost
// SwiftShader several times more (measured ~2x on the whole kernel at M = 1).
fn codes(v: u32, half: u32) -> vec4<f32> {
  if (FORMAT == 2u) {
    if (half == 0u) { return unpack4x8unorm(v & 0x0f0f0f0fu) - vec4<f32>(8.0 / 255.0); }
    return unpack4x8unorm(v & 0xf0f0f0f0u) - vec4<f32>(128.0 / 255.0);
  }
  return unpack4x8snorm(v);
}

// x values at columns k, k + step, k + 2 step, k + 3 step (step 2 matches int4's even/odd nibbles), clamped to the
// row's last element: the zero codes padding W's last block make the clamped values' products vanish, and no read
// leaves the buffer. With subgroups, qmatmul.ts swaps this region for shaders/qmatmul_quad.wgsl, where each lane
// of a quad loads one value and quadBroadcast shares it.
// <x4>
fn x4(rowBase: u32, k: u32, step: u32, last: u32) -> vec4<f32> {
  return vec4<f32>(x[rowBase + min(k, last)], x[rowBase + min(k + step, last)], x[rowBase + min(k + 2u * step, last)],
                   x[rowBase + min(k + 3u * step, last)]);
}
// </x4>

fn mac(acc: vec4<f32>, xv: vec4<f32>, q0: vec4<f32>, q1: vec4<f32>, q2: vec4<f32>, q3: vec4<f32>) -> vec4<f32> {
  return acc + vec4<f32>(dot(xv, q0), dot(xv, q1), dot(xv, q2), dot(xv, q3));
}

fn store(row: u32, n0: u32, v: vec4<f32>) {
  if (row >= u.M) { return; }
  let base = u.outOff + row * u.N + n0;
  for (var j = 0u; j < 4u; j++) {
    if (n0 + j < u.N) {
      if (u.beta == 0.0) { y[base + j] = v[j]; } else { y[base + j] = v[j] + u.beta * y[base + j]; }
    }
  }
}

fn blockScales(f0: u32, f1: u32, f2: u32, f3: u32, kb: u32) -> vec4<f32> {
  if (FORMAT == 0u) { return vec4<f32>(1.0); }
  return vec4<f32>(s[f0 * u.scalesPerRow + kb], s[f1 * u.scalesPerRow + kb], s[f2 * u.scalesPerRow + kb],
                   s[f3 * u.scalesPerRow + kb]);
}

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let n0 = gid.x * NF;
  let row0 = gid.y * TM;
  // No early return for lanes past N or M: the quad variant needs every lane of a quad to take part. Their
  // indices are clamped, and they store nothing.
  let lastN = u.N - 1u;
  // Features past N are clamped to the last one (loads stay in bounds; their results are never stored).
  let f0 = min(n0 + 0u, lastN);
  let f1 = min(n0 + 1u, lastN);
  let f2 = min(n0 + 2u, lastN);
  let f3 = min(n0 + 3u, lastN);
  let f4 = min(n0 + 4u, lastN);
  let f5 = min(n0 + 5u, lastN);
  let f6 = min(n0 + 6u, lastN);
  let f7 = min(n0 + 7u, lastN);
  let lastK = u.K - 1u;
  let lastM = u.M - 1u;
  let xb0 = u.inOff + min(row0, lastM) * u.K;
  let xb1 = u.inOff + min(row0 + 1u, lastM) * u.K;
  let xb2 = u.inOff + min(row0 + 2u, lastM) * u.K;
  let xb3 = u.inOff + min(row0 + 3u, lastM) * u.K;
  let xb4 = u.inOff + min(row0 + 4u, lastM) * u.K;
  let xb5 = u.inOff + min(row0 + 5u, lastM) * u.K;
  let xb6 = u.inOff + min(row0 + 6u, lastM) * u.K;
  let xb7 = u.inOff + min(row0 + 7u, lastM) * u.K;
  var a0 = vec4<f32>(0.0);
  var a1 = vec4<f32>(0.0);
  var a2 = vec4<f32>(0.0);
  var a3 = vec4<f32>(0.0);
  var a4 = vec4<f32>(0.0);
  var a5 = vec4<f32>(0.0);
  var a6 = vec4<f32>(0.0);
  var a7 = vec4<f32>(0.0);
  var h0 = vec4<f32>(0.0);
  var h1 = vec4<f32>(0.0);
  var h2 = vec4<f32>(0.0);
  var h3 = vec4<f32>(0.0);
  var h4 = vec4<f32>(0.0);
  var h5 = vec4<f32>(0.0);
  var h6 = vec4<f32>(0.0);
  var h7 = vec4<f32>(0.0);
  var wordsPerBlock = 8u;
  // Columns of half 0 are k + step * i, of half 1 k + hiCol + step * i.
  var step = 1u;
  var hiCol = 4u;
  // codes() factors; 1 for int8-row, whose factor 127 goes into its row scale.
  var loFactor = 1.0;
  var hiFactor = 1.0;
  if (FORMAT == 1u) {
    loFactor = 127.0;
    hiFactor = 127.0;
  }
  if (FORMAT == 2u) {
    wordsPerBlock = 4u;
    step = 2u;
    hiCol = 1u;
    loFactor = 255.0;
    hiFactor = 255.0 / 16.0;
  }
  let blocks = (u.K + 31u) / 32u;
  for (var kb = 0u; kb < blocks; kb++) {
    let wo = kb * wordsPerBlock;
    let w0 = f0 * u.wordsPerRow + wo;
    let w1 = f1 * u.wordsPerRow + wo;
    let w2 = f2 * u.wordsPerRow + wo;
    let w3 = f3 * u.wordsPerRow + wo;
    let w4 = f4 * u.wordsPerRow + wo;
    let w5 = f5 * u.wordsPerRow + wo;
    let w6 = f6 * u.wordsPerRow + wo;
    let w7 = f7 * u.wordsPerRow + wo;
    // Block scales times the codes() factor of each half; int8-row applies its scale (and factor) at the end.
    let sv = blockScales(f0, f1, f2, f3, kb);
    var sv2 = vec4<f32>(1.0);
    if (NF > 4u) { sv2 = blockScales(f4, f5, f6, f7, kb); }
    let svLo = sv * loFactor;
    let svHi = sv * hiFactor;
    let sv2Lo = sv2 * loFactor;
    let sv2Hi = sv2 * hiFactor;
    for (var it = 0u; it < 4u; it++) {
      let k = kb * 32u + it * 8u;
      var v0 = 0u;
      var v1 = 0u;
      var v2 = 0u;
      var v3 = 0u;
      var v4 = 0u;
      var v5 = 0u;
      var v6 = 0u;
      var v7 = 0u;
      var q0 = vec4<f32>(0.0);
      var q1 = vec4<f32>(0.0);
      var q2 = vec4<f32>(0.0);
      var q3 = vec4<f32>(0.0);
      var q4 = vec4<f32>(0.0);
      var q5 = vec4<f32>(0.0);
      var q6 = vec4<f32>(0.0);
      var q7 = vec4<f32>(0.0);
      // Half 0: int8 columns k..k+3; int4 the even columns k, k+2, k+4, k+6 (low nibbles of each byte).
      if (FORMAT == 2u) {
        v0 = w[w0 + it];
        v1 = w[w1 + it];
        v2 = w[w2 + it];
        v3 = w[w3 + it];
        if (NF > 4u) {
          v4 = w[w4 + it];
          v5 = w[w5 + it];
          v6 = w[w6 + it];
          v7 = w[w7 + it];
        }
      } else {
        v0 = w[w0 + 2u * it];
        v1 = w[w1 + 2u * it];
        v2 = w[w2 + 2u * it];
        v3 = w[w3 + 2u * it];
        if (NF > 4u) {
          v4 = w[w4 + 2u * it];
          v5 = w[w5 + 2u * it];
          v6 = w[w6 + 2u * it];
          v7 = w[w7 + 2u * it];
        }
      }
      q0 = codes(v0, 0u) * svLo.x;
      q1 = codes(v1, 0u) * svLo.y;
      q2 = codes(v2, 0u) * svLo.z;
      q3 = codes(v3, 0u) * svLo.w;
      if (NF > 4u) {
        q4 = codes(v4, 0u) * sv2Lo.x;
        q5 = codes(v5, 0u) * sv2Lo.y;
        q6 = codes(v6, 0u) * sv2Lo.z;
        q7 = codes(v7, 0u) * sv2Lo.w;
      }
      let x0lo = x4(xb0, k, step, lastK);
      a0 = mac(a0, x0lo, q0, q1, q2, q3);
      if (NF > 4u) { h0 = mac(h0, x0lo, q4, q5, q6, q7); }
      if (TM > 1u) {
        let x1lo = x4(xb1, k, step, lastK);
        a1 = mac(a1, x1lo, q0, q1, q2, q3);
        if (NF > 4u) { h1 = mac(h1, x1lo, q4, q5, q6, q7); }
      }
      if (TM > 2u) {
        let x2lo = x4(xb2, k, step, lastK);
        a2 = mac(a2, x2lo, q0, q1, q2, q3);
        if (NF > 4u) { h2 = mac(h2, x2lo, q4, q5, q6, q7); }
        let x3lo = x4(xb3, k, step, lastK);
        a3 = mac(a3, x3lo, q0, q1, q2, q3);
        if (NF > 4u) { h3 = mac(h3, x3lo, q4, q5, q6, q7); }
      }
      if (TM > 4u) {
        let x4lo = x4(xb4, k, step, lastK);
        a4 = mac(a4, x4lo, q0, q1, q2, q3);
        if (NF > 4u) { h4 = mac(h4, x4lo, q4, q5, q6, q7); }
        let x5lo = x4(xb5, k, step, lastK);
        a5 = mac(a5, x5lo, q0, q1, q2, q3);
        if (NF > 4u) { h5 = mac(h5, x5lo, q4, q5, q6, q7); }
        let x6lo = x4(xb6, k, step, lastK);
        a6 = mac(a6, x6lo, q0, q1, q2, q3);
        if (NF > 4u) { h6 = mac(h6, x6lo, q4, q5, q6, q7); }
        let x7lo = x4(xb7, k, step, lastK);
        a7 = mac(a7, x7lo, q0, q1, q2, q3);
        if (NF > 4u) { h7 = mac(h7, x7lo, q4, q5, q6, q7); }
      }
      // Half 1: int8 columns k+4..k+7 (the next word); int4 the odd columns (high nibbles of the same word).
      if (FORMAT != 2u) {
        v0 = w[w0 + 2u * it + 1u];
        v1 = w[w1 + 2u * it + 1u];
        v2 = w[w2 + 2u * it + 1u];
        v3 = w[w3 + 2u * it + 1u];
        if (NF > 4u) {
          v4 = w[w4 + 2u * it + 1u];
          v5 = w[w5 + 2u * it + 1u];
          v6 = w[w6 + 2u * it + 1u];
          v7 = w[w7 + 2u * it + 1u];
        }
      }
      q0 = codes(v0, 1u) * svHi.x;
      q1 = codes(v1, 1u) * svHi.y;
      q2 = codes(v2, 1u) * svHi.z;
      q3 = codes(v3, 1u) * svHi.w;
      if (NF > 4u) {
        q4 = codes(v4, 1u) * sv2Hi.x;
        q5 = codes(v5, 1u) * sv2Hi.y;
        q6 = codes(v6, 1u) * sv2Hi.z;
        q7 = codes(v7, 1u) * sv2Hi.w;
      }
      let x0hi = x4(xb0, k + hiCol, step, lastK);
      a0 = mac(a0, x0hi, q0, q1, q2, q3);
      if (NF > 4u) { h0 = mac(h0, x0hi, q4, q5, q6, q7); }
      if (TM > 1u) {
        let x1hi = x4(xb1, k + hiCol, step, lastK);
        a1 = mac(a1, x1hi, q0, q1, q2, q3);
        if (NF > 4u) { h1 = mac(h1, x1hi, q4, q5, q6, q7); }
      }
      if (TM > 2u) {
        let x2hi = x4(xb2, k + hiCol, step, lastK);
        a2 = mac(a2, x2hi, q0, q1, q2, q3);
        if (NF > 4u) { h2 = mac(h2, x2hi, q4, q5, q6, q7); }
        let x3hi = x4(xb3, k + hiCol, step, lastK);
        a3 = mac(a3, x3hi, q0, q1, q2, q3);
        if (NF > 4u) { h3 = mac(h3, x3hi, q4, q5, q6, q7); }
      }
      if (TM > 4u) {
        let x4hi = x4(xb4, k + hiCol, step, lastK);
        a4 = mac(a4, x4hi, q0, q1, q2, q3);
        if (NF > 4u) { h4 = mac(h4, x4hi, q4, q5, q6, q7); }
        let x5hi = x4(xb5, k + hiCol, step, lastK);
        a5 = mac(a5, x5hi, q0, q1, q2, q3);
        if (NF > 4u) { h5 = mac(h5, x5hi, q4, q5, q6, q7); }
        let x6hi = x4(xb6, k + hiCol, step, lastK);
        a6 = mac(a6, x6hi, q0, q1, q2, q3);
        if (NF > 4u) { h6 = mac(h6, x6hi, q4, q5, q6, q7); }
        let x7hi = x4(xb7, k + hiCol, step, lastK);
        a7 = mac(a7, x7hi, q0, q1, q2, q3);
        if (NF > 4u) { h7 = mac(h7, x7hi, q4, q5, q6, q7); }
      }
    }
  }
  if (n0 >= u.N || row0 >= u.M) { return; }
  if (FORMAT == 0u) {
    let rs = vec4<f32>(s[f0], s[f1], s[f2], s[f3]) * 127.0;
    let rs2 = vec4<f32>(s[f4], s[f5], s[f6], s[f7]) * 127.0;
    a0 *= rs;
    h0 *= rs2;
    a1 *= rs;
    h1 *= rs2;
    a2 *= rs;
    h2 *= rs2;
    a3 *= rs;
    h3 *= rs2;
    a4 *= rs;
    h4 *= rs2;
    a5 *= rs;
    h5 *= rs2;
    a6 *= rs;
    h6 *= rs2;
    a7 *= rs;
    h7 *= rs2;
  }
  storeTile(row0, n0, TM, NF > 4u, a0, a1, a2, a3, a4, a5, a6, a7, h0, h1, h2, h3, h4, h5, h6, h7);
}
