// Input gradient through a frozen quantized Linear: dx[M, K] = dy[M, N] · dequant(W[N, K]) (+ dx when accumulate),
// W in the layout of src/gpu/quant.ts ([out = N, in = K], rows padded to whole 32-column blocks). The backward's
// counterpart of qmatmul.wgsl: the codes are dequantized on the fly, so no fp32 copy of W ever exists. Each
// invocation owns 8 consecutive columns (one int4 word, two int8 words, always inside one 32-column block, so one
// scale per row n) and TM rows of dy; it walks the N rows of W, reusing each unpacked row segment TM times.
// Codes come out through extractBits (exact integers; int8 sign-extends from i32), times the f32 scale: the very
// value dequantize() in quant.ts produces, so the CPU reference multiplies the same weights.
// (common/store_tile.wgsl is appended.)
struct U { M: u32, N: u32, K: u32, wordsPerRow: u32, scalesPerRow: u32, inOff: u32, outOff: u32, beta: f32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> dy: array<f32>;
@group(0) @binding(2) var<storage, read> w: array<u32>;
@group(0) @binding(3) var<storage, read> s: array<f32>;
@group(0) @binding(4) var<storage, read_write> dx: array<f32>;

override WG: u32 = 64;
// 0 int8 per-row scales, 1 int8 block-32 scales, 2 int4 block-32 scales.
override FORMAT: u32 = 0;
// Rows of dy per invocation: 1, 2, 4 or 8.
override TM: u32 = 4;

fn store(row: u32, c0: u32, v: vec4<f32>) {
  if (row >= u.M) { return; }
  let base = u.outOff + row * u.K + c0;
  for (var j = 0u; j < 4u; j++) {
    if (c0 + j < u.K) {
      if (u.beta == 0.0) { dx[base + j] = v[j]; } else { dx[base + j] = v[j] + u.beta * dx[base + j]; }
    }
  }
}

fn int4x4(v: u32, bit: u32) -> vec4<f32> {
  return vec4<f32>(f32(extractBits(v, bit, 4u)), f32(extractBits(v, bit + 4u, 4u)), f32(extractBits(v, bit + 8u, 4u)),
                   f32(extractBits(v, bit + 12u, 4u))) - vec4<f32>(8.0);
}

fn int8x4(v: u32) -> vec4<f32> {
  let i = bitcast<i32>(v);
  return vec4<f32>(f32(extractBits(i, 0u, 8u)), f32(extractBits(i, 8u, 8u)), f32(extractBits(i, 16u, 8u)),
                   f32(extractBits(i, 24u, 8u)));
}

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let c0 = gid.x * 8u;
  let row0 = gid.y * TM;
  if (c0 >= u.K || row0 >= u.M) { return; }
  let kb = c0 / 32u;
  let lastM = u.M - 1u;
  let d0 = u.inOff + row0 * u.N;
  let d1 = u.inOff + min(row0 + 1u, lastM) * u.N;
  let d2 = u.inOff + min(row0 + 2u, lastM) * u.N;
  let d3 = u.inOff + min(row0 + 3u, lastM) * u.N;
  let d4 = u.inOff + min(row0 + 4u, lastM) * u.N;
  let d5 = u.inOff + min(row0 + 5u, lastM) * u.N;
  let d6 = u.inOff + min(row0 + 6u, lastM) * u.N;
  let d7 = u.inOff + min(row0 + 7u, lastM) * u.N;
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
  for (var n = 0u; n < u.N; n++) {
    var sc = 0.0;
    var lo = vec4<f32>(0.0);
    var hi = vec4<f32>(0.0);
    if (FORMAT == 2u) {
      sc = s[n * u.scalesPerRow + kb];
      let v = w[n * u.wordsPerRow + c0 / 8u];
      lo = int4x4(v, 0u);
      hi = int4x4(v, 16u);
    } else {
      sc = s[n * u.scalesPerRow + select(kb, 0u, FORMAT == 0u)];
      let wi = n * u.wordsPerRow + c0 / 4u;
      lo = int8x4(w[wi]);
      hi = int8x4(w[wi + 1u]);
    }
    lo *= sc;
    hi *= sc;
    let g0 = dy[d0 + n];
    a0 += g0 * lo;
    h0 += g0 * hi;
    if (TM > 1u) {
      let g1 = dy[d1 + n];
      a1 += g1 * lo;
      h1 += g1 * hi;
    }
    if (TM > 2u) {
      let g2 = dy[d2 + n];
      a2 += g2 * lo;
      h2 += g2 * hi;
      let g3 = dy[d3 + n];
      a3 += g3 * lo;
      h3 += g3 * hi;
    }
    if (TM > 4u) {
      let g4 = dy[d4 + n];
      a4 += g4 * lo;
      h4 += g4 * hi;
      let g5 = dy[d5 + n];
      a5 += g5 * lo;
      h5 += g5 * hi;
      let g6 = dy[d6 + n];
      a6 += g6 * lo;
      h6 += g6 * hi;
      let g7 = dy[d7 + n];
      a7 += g7 * lo;
      h7 += g7 * hi;
    }
  }
  storeTile(row0, c0, TM, true, a0, a1, a2, a3, a4, a5, a6, a7, h0, h1, h2, h3, h4, h5, h6, h7);
}
