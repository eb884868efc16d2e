// Workgroup-memory tiled fp32 matmul for real GPUs: each workgroup stages a BK-deep slab of A and B in shared
// memory, each invocation accumulates a 4x4 register tile. Any shape and any transpose combination; loads are
// bounds-checked (zero fill), so this is also the fallback for shapes the vec4 kernel cannot take.
// C[M,N] = alpha * op(A)·op(B) + beta * C. (common/matmul_io.wgsl (uniforms, output C, transposes) is appended.)
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;

override WG_X: u32 = 8;
override WG_Y: u32 = 8;
const BK = 16u;
override BM: u32 = 4u * WG_Y;
override BN: u32 = 4u * WG_X;

// Slabs stored k-major so the inner loop reads 4 consecutive rows / columns.
var<workgroup> As: array<f32, BK * BM>;
var<workgroup> Bs: array<f32, BK * BN>;

fn loadA(row: u32, k: u32) -> f32 {
  if (row >= u.M || k >= u.K) { return 0.0; }
  if (TRANS_A) { return a[u.aOff + k * u.M + row]; }
  return a[u.aOff + row * u.K + k];
}

fn loadB(k: u32, col: u32) -> f32 {
  if (col >= u.N || k >= u.K) { return 0.0; }
  if (TRANS_B) { return b[u.bOff + col * u.K + k]; }
  return b[u.bOff + k * u.N + col];
}

fn put(row: u32, col: u32, v: f32) {
  if (row >= u.M || col >= u.N) { return; }
  let i = u.cOff + row * u.N + col;
  if (u.beta == 0.0) { c[i] = u.alpha * v; } else { c[i] = u.alpha * v + u.beta * c[i]; }
}

@compute @workgroup_size(WG_X, WG_Y)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let tid = lid.y * WG_X + lid.x;
  let threads = WG_X * WG_Y;
  let rowBase = wg.y * BM;
  let colBase = wg.x * BN;
  var acc: array<vec4<f32>, 4>;
  for (var k0 = 0u; k0 < u.K; k0 += BK) {
    // Consecutive invocations take consecutive elements along each operand's contiguous axis.
    for (var e = tid; e < BK * BM; e += threads) {
      var m: u32;
      var kk: u32;
      if (TRANS_A) { m = e % BM; kk = e / BM; } else { kk = e % BK; m = e / BK; }
      As[kk * BM + m] = loadA(rowBase + m, k0 + kk);
    }
    for (var e = tid; e < BK * BN; e += threads) {
      var n: u32;
      var kk: u32;
      if (TRANS_B) { kk = e % BK; n = e / BK; } else { n = e % BN; kk = e / BN; }
      Bs[kk * BN + n] = loadB(k0 + kk, colBase + n);
    }
    workgroupBarrier();
    for (var kk = 0u; kk < BK; kk++) {
      let ai = kk * BM + lid.y * 4u;
      let bi = kk * BN + lid.x * 4u;
      let av = vec4<f32>(As[ai], As[ai + 1u], As[ai + 2u], As[ai + 3u]);
      let bv = vec4<f32>(Bs[bi], Bs[bi + 1u], Bs[bi + 2u], Bs[bi + 3u]);
      acc[0] += av.x * bv;
      acc[1] += av.y * bv;
      acc[2] += av.z * bv;
      acc[3] += av.w * bv;
    }
    workgroupBarrier();
  }
  let row = rowBase + lid.y * 4u;
  let col = colBase + lid.x * 4u;
  for (var i = 0u; i < 4u; i++) {
    put(row + i, col, acc[i].x);
    put(row + i, col + 1u, acc[i].y);
    put(row + i, col + 2u, acc[i].z);
    put(row + i, col + 3u, acc[i].w);
  }
}
