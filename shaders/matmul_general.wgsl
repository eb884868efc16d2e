// General fp32 matmul for shapes the vec4 kernel cannot take (K or N not a multiple of 4, unaligned offsets, Aᵀ·Bᵀ):
// register tiles of TM rows x 4 columns with scalar loads and one k per step, so no shape or alignment limits.
// On SwiftShader this is the fallback of choice: no barriers (workgroup-memory tiling pays a large fixed cost per
// workgroup there) and ~8 loads per 32 FMAs instead of the naive kernel's 2 per FMA.
// C[M,N] = alpha * op(A)·op(B) + beta * C. (common/matmul_io.wgsl (uniforms, output C, transposes) and common/matmul_tile.wgsl are appended.)
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;

override WG_X: u32 = 16;
override WG_Y: u32 = 4;
// Rows per invocation: 1, 2, 4 or 8 (constant per pipeline, so unused rows compile away).
override TM: u32 = 4;

@compute @workgroup_size(WG_X, WG_Y)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let col0 = gid.x * 4u;
  let row0 = gid.y * TM;
  if (col0 >= u.N || row0 >= u.M) { return; }
  // Element (i, k) of op(A) is at a[ai + k * ak], element (k, j) of op(B) at b[bj + k * bk]; rows and columns
  // past the edge are clamped (their results are never stored).
  var ak = 1u;
  var rowStride = u.K;
  if (TRANS_A) { ak = u.M; rowStride = 1u; }
  var bk = u.N;
  var colStride = 1u;
  if (TRANS_B) { bk = 1u; colStride = u.K; }
  let lastRow = u.M - 1u;
  let lastCol = u.N - 1u;
  let ai0 = u.aOff + min(row0, lastRow) * rowStride;
  let ai1 = u.aOff + min(row0 + 1u, lastRow) * rowStride;
  let ai2 = u.aOff + min(row0 + 2u, lastRow) * rowStride;
  let ai3 = u.aOff + min(row0 + 3u, lastRow) * rowStride;
  let ai4 = u.aOff + min(row0 + 4u, lastRow) * rowStride;
  let ai5 = u.aOff + min(row0 + 5u, lastRow) * rowStride;
  let ai6 = u.aOff + min(row0 + 6u, lastRow) * rowStride;
  let ai7 = u.aOff + min(row0 + 7u, lastRow) * rowStride;
  let bj0 = u.bOff + min(col0 + 0u, lastCol) * colStride;
  let bj1 = u.bOff + min(col0 + 1u, lastCol) * colStride;
  let bj2 = u.bOff + min(col0 + 2u, lastCol) * colStride;
  let bj3 = u.bOff + min(col0 + 3u, lastCol) * colStride;
  var acc0 = vec4<f32>(0.0);
  var acc1 = vec4<f32>(0.0);
  var acc2 = vec4<f32>(0.0);
  var acc3 = vec4<f32>(0.0);
  var acc4 = vec4<f32>(0.0);
  var acc5 = vec4<f32>(0.0);
  var acc6 = vec4<f32>(0.0);
  var acc7 = vec4<f32>(0.0);
  for (var k = 0u; k < u.K; k++) {
    let bv = vec4<f32>(b[bj0 + k * bk], b[bj1 + k * bk], b[bj2 + k * bk], b[bj3 + k * bk]);
    let ko = k * ak;
    acc0 += a[ai0 + ko] * bv;
    if (TM > 1u) {
      acc1 += a[ai1 + ko] * bv;
    }
    if (TM > 2u) {
      acc2 += a[ai2 + ko] * bv;
      acc3 += a[ai3 + ko] * bv;
    }
    if (TM > 4u) {
      acc4 += a[ai4 + ko] * bv;
      acc5 += a[ai5 + ko] * bv;
      acc6 += a[ai6 + ko] * bv;
      acc7 += a[ai7 + ko] * bv;
    }
  }
  store(row0, col0, acc0);
  if (TM > 1u) {
    store(row0 + 1u, col0, acc1);
  }
  if (TM > 2u) {
    store(row0 + 2u, col0, acc2);
    store(row0 + 3u, col0, acc3);
  }
  if (TM > 4u) {
    store(row0 + 4u, col0, acc4);
    store(row0 + 5u, col0, acc5);
    store(row0 + 6u, col0, acc6);
    store(row0 + 7u, col0, acc7);
  }
}
