// Quad-shared fp32 matmul (needs 'subgroups'): C[M,N] = alpha·op(A)·op(B) + beta·C in the forms A·B, A·Bᵀ, Aᵀ·B.
// Same register tile as shaders/matmul.wgsl's 8x8 path (each invocation: 8 rows x 8 columns, vec4 loads), but the
// four lanes of a quad own the same 8 rows (they share gid.y), so instead of each lane gathering all 8 A vectors,
// lane l loads 2 and quadBroadcast hands them round: 10 storage loads per 256 FMAs instead of 16. On SwiftShader
// every storage load is a per-lane gather and quad broadcasts are register shuffles, so this is ~1.3x less CPU at
// the tiny model's shapes (src/cli/bench-train.ts). No early return: every quad lane must reach the
// broadcasts, so loads are clamped in bounds and stores guarded. Alignment as matmul.wgsl (checked by the launcher):
// A·B needs K%4 = N%4 = 0; A·Bᵀ needs K%4 = 0; Aᵀ·B needs M%4 = N%4 = 0; offsets multiples of 4 elements.
// (common/matmul_io.wgsl (uniforms, output C, transposes), common/matmul_tile.wgsl and common/store_tile.wgsl are appended.)
enable subgroups;
@group(0) @binding(1) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> b: array<vec4<f32>>;

override WG_X: u32 = 16; // a multiple of 4, so each quad lies in one row of the workgroup
override WG_Y: u32 = 4;

@compute @workgroup_size(WG_X, WG_Y)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(subgroup_invocation_id) sg: u32) {
  let lane = sg & 3u;
  let col0 = gid.x * 8u;
  let row0 = gid.y * 8u;
  let N4 = u.N / 4u;
  let K4 = u.K / 4u;
  let aOff = u.aOff / 4u;
  let bOff = u.bOff / 4u;
  let lastCol = u.N - 1u;
  // Column groups past N are clamped to the last one (their results are never stored).
  let cg0 = min(col0 / 4u, N4 - 1u);
  let cg1 = min(col0 / 4u + 1u, N4 - 1u);
  var a0 = vec4<f32>(0.0);
  var h0 = vec4<f32>(0.0);
  var a1 = vec4<f32>(0.0);
  var h1 = vec4<f32>(0.0);
  var a2 = vec4<f32>(0.0);
  var h2 = vec4<f32>(0.0);
  var a3 = vec4<f32>(0.0);
  var h3 = vec4<f32>(0.0);
  var a4 = vec4<f32>(0.0);
  var h4 = vec4<f32>(0.0);
  var a5 = vec4<f32>(0.0);
  var h5 = vec4<f32>(0.0);
  var a6 = vec4<f32>(0.0);
  var h6 = vec4<f32>(0.0);
  var a7 = vec4<f32>(0.0);
  var h7 = vec4<f32>(0.0);
  if (TRANS_A) {
    // Aᵀ·B: A is [K, M]. Four k per step: lane l loads A's row k0 + l (this tile's 8 columns of it, zero past K)
    // and broadcast kk gives every lane row k0 + kk.
    let M4 = u.M / 4u;
    let ca0 = aOff + min(row0 / 4u, M4 - 1u);
    let ca1 = aOff + min(row0 / 4u + 1u, M4 - 1u);
    let lastK = u.K - 1u;
    for (var k0 = 0u; k0 < u.K; k0 += 4u) {
      let kl = k0 + lane;
      let live = select(0.0, 1.0, kl < u.K);
      let x = a[ca0 + min(kl, lastK) * M4] * live;
      let y = a[ca1 + min(kl, lastK) * M4] * live;
      {
        let kb = bOff + min(k0 + 0u, lastK) * N4;
        let bv = b[kb + cg0];
        let dv = b[kb + cg1];
        let p = quadBroadcast(x, 0u);
        let q = quadBroadcast(y, 0u);
        a0 += p.x * bv; h0 += p.x * dv; a1 += p.y * bv; h1 += p.y * dv;
        a2 += p.z * bv; h2 += p.z * dv; a3 += p.w * bv; h3 += p.w * dv;
        a4 += q.x * bv; h4 += q.x * dv; a5 += q.y * bv; h5 += q.y * dv;
        a6 += q.z * bv; h6 += q.z * dv; a7 += q.w * bv; h7 += q.w * dv;
      }
      {
        let kb = bOff + min(k0 + 1u, lastK) * N4;
        let bv = b[kb + cg0];
        let dv = b[kb + cg1];
        let p = quadBroadcast(x, 1u);
        let q = quadBroadcast(y, 1u);
        a0 += p.x * bv; h0 += p.x * dv; a1 += p.y * bv; h1 += p.y * dv;
        a2 += p.z * bv; h2 += p.z * dv; a3 += p.w * bv; h3 += p.w * dv;
        a4 += q.x * bv; h4 += q.x * dv; a5 += q.y * bv; h5 += q.y * dv;
        a6 += q.z * bv; h6 += q.z * dv; a7 += q.w * bv; h7 += q.w * dv;
      }
      {
        let kb = bOff + min(k0 + 2u, lastK) * N4;
        let bv = b[kb + cg0];
        let dv = b[kb + cg1];
        let p = quadBroadcast(x, 2u);
        let q = quadBroadcast(y, 2u);
        a0 += p.x * bv; h0 += p.x * dv; a1 += p.y * bv; h1 += p.y * dv;
        a2 += p.z * bv; h2 += p.z * dv; a3 += p.w * bv; h3 += p.w * dv;
        a4 += q.x * bv; h4 += q.x * dv; a5 += q.y * bv; h5 += q.y * dv;
        a6 += q.z * bv; h6 += q.z * dv; a7 += q.w * bv; h7 += q.w * dv;
      }
      {
        let kb = bOff + min(k0 + 3u, lastK) * N4;
        let bv = b[kb + cg0];
        let dv = b[kb + cg1];
        let p = quadBroadcast(x, 3u);
        let q = quadBroadcast(y, 3u);
        a0 += p.x * bv; h0 += p.x * dv; a1 += p.y * bv; h1 += p.y * dv;
        a2 += p.z * bv; h2 += p.z * dv; a3 += p.w * bv; h3 += p.w * dv;
        a4 += q.x * bv; h4 += q.x * dv; a5 += q.y * bv; h5 += q.y * dv;
        a6 += q.z * bv; h6 += q.z * dv; a7 += q.w * bv; h7 += q.w * dv;
      }
    }
  } else {
    // A·B and A·Bᵀ: lane l loads rows row0 + 2l and row0 + 2l + 1 of A; broadcast j gives rows 2j and 2j + 1.
    let lastRow = u.M - 1u;
    let rx = aOff + min(row0 + 2u * lane, lastRow) * K4;
    let ry = aOff + min(row0 + 2u * lane + 1u, lastRow) * K4;
    let rb0 = bOff + min(col0 + 0u, lastCol) * K4;
    let rb1 = bOff + min(col0 + 1u, lastCol) * K4;
    let rb2 = bOff + min(col0 + 2u, lastCol) * K4;
    let rb3 = bOff + min(col0 + 3u, lastCol) * K4;
    let rb4 = bOff + min(col0 + 4u, lastCol) * K4;
    let rb5 = bOff + min(col0 + 5u, lastCol) * K4;
    let rb6 = bOff + min(col0 + 6u, lastCol) * K4;
    let rb7 = bOff + min(col0 + 7u, lastCol) * K4;
    for (var k = 0u; k < K4; k++) {
      var b0: vec4<f32>; var b1: vec4<f32>; var b2: vec4<f32>; var b3: vec4<f32>;
      var d0: vec4<f32>; var d1: vec4<f32>; var d2: vec4<f32>; var d3: vec4<f32>;
      if (TRANS_B) {
        b0 = b[rb0 + k]; b1 = b[rb1 + k]; b2 = b[rb2 + k]; b3 = b[rb3 + k];
        d0 = b[rb4 + k]; d1 = b[rb5 + k]; d2 = b[rb6 + k]; d3 = b[rb7 + k];
      } else {
        let bi = bOff + 4u * k * N4;
        b0 = b[bi + cg0]; b1 = b[bi + N4 + cg0]; b2 = b[bi + 2u * N4 + cg0]; b3 = b[bi + 3u * N4 + cg0];
        d0 = b[bi + cg1]; d1 = b[bi + N4 + cg1]; d2 = b[bi + 2u * N4 + cg1]; d3 = b[bi + 3u * N4 + cg1];
      }
      let x = a[rx + k];
      let y = a[ry + k];
      {
        let v = quadBroadcast(x, 0u);
        if (TRANS_B) { a0 = dotRow(a0, v, b0, b1, b2, b3); h0 = dotRow(h0, v, d0, d1, d2, d3); }
        else { a0 = fmaRow(a0, v, b0, b1, b2, b3); h0 = fmaRow(h0, v, d0, d1, d2, d3); }
      }
      {
        let v = quadBroadcast(y, 0u);
        if (TRANS_B) { a1 = dotRow(a1, v, b0, b1, b2, b3); h1 = dotRow(h1, v, d0, d1, d2, d3); }
        else { a1 = fmaRow(a1, v, b0, b1, b2, b3); h1 = fmaRow(h1, v, d0, d1, d2, d3); }
      }
      {
        let v = quadBroadcast(x, 1u);
        if (TRANS_B) { a2 = dotRow(a2, v, b0, b1, b2, b3); h2 = dotRow(h2, v, d0, d1, d2, d3); }
        else { a2 = fmaRow(a2, v, b0, b1, b2, b3); h2 = fmaRow(h2, v, d0, d1, d2, d3); }
      }
      {
        let v = quadBroadcast(y, 1u);
        if (TRANS_B) { a3 = dotRow(a3, v, b0, b1, b2, b3); h3 = dotRow(h3, v, d0, d1, d2, d3); }
        else { a3 = fmaRow(a3, v, b0, b1, b2, b3); h3 = fmaRow(h3, v, d0, d1, d2, d3); }
      }
      {
        let v = quadBroadcast(x, 2u);
        if (TRANS_B) { a4 = dotRow(a4, v, b0, b1, b2, b3); h4 = dotRow(h4, v, d0, d1, d2, d3); }
        else { a4 = fmaRow(a4, v, b0, b1, b2, b3); h4 = fmaRow(h4, v, d0, d1, d2, d3); }
      }
      {
        let v = quadBroadcast(y, 2u);
        if (TRANS_B) { a5 = dotRow(a5, v, b0, b1, b2, b3); h5 = dotRow(h5, v, d0, d1, d2, d3); }
        else { a5 = fmaRow(a5, v, b0, b1, b2, b3); h5 = fmaRow(h5, v, d0, d1, d2, d3); }
      }
      {
        let v = quadBroadcast(x, 3u);
        if (TRANS_B) { a6 = dotRow(a6, v, b0, b1, b2, b3); h6 = dotRow(h6, v, d0, d1, d2, d3); }
        else { a6 = fmaRow(a6, v, b0, b1, b2, b3); h6 = fmaRow(h6, v, d0, d1, d2, d3); }
      }
      {
        let v = quadBroadcast(y, 3u);
        if (TRANS_B) { a7 = dotRow(a7, v, b0, b1, b2, b3); h7 = dotRow(h7, v, d0, d1, d2, d3); }
        else { a7 = fmaRow(a7, v, b0, b1, b2, b3); h7 = fmaRow(h7, v, d0, d1, d2, d3); }
      }
    }
  }
  storeTile(row0, col0, 8u, true, a0, a1, a2, a3, a4, a5, a6, a7, h0, h1, h2, h3, h4, h5, h6, h7);
}
