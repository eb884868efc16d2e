// Fast fp32 matmul: register tiles (TM rows x TN columns per invocation) fed by vec4 loads, no workgroup memory.
// C[M,N] = alpha * op(A)·op(B) + beta * C. On SwiftShader this beats workgroup-memory tiling ~3x per CPU-second.
// Alignment (checked by the launcher): A·B needs K%4 = N%4 = 0; A·Bᵀ needs K%4 = 0; Aᵀ·B needs M%4 = N%4 = 0 and
// TM >= 4; offsets are multiples of 4 elements. Other shapes go to matmul_tiled.wgsl. Edges are handled by clamping
// load indices (always in bounds) and guarding stores, so M and N need not be multiples of the tile.
// Accumulators: a<r> holds row r's columns 0..3 of the tile, h<r> its columns 4..7 (TN = 8 only).
// (common/matmul_io.wgsl (uniforms, output C, transposes), common/matmul_tile.wgsl and common/store_tile.wgsl are appended.)
@group(0) @binding(1) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> b: array<vec4<f32>>;

override WG_X: u32 = 16;
override WG_Y: u32 = 4;
// Rows per invocation: 1, 2, 4 or 8; columns: 4 or 8. Constant per pipeline, so unused parts compile away.
override TM: u32 = 4;
override TN: u32 = 4;

@compute @workgroup_size(WG_X, WG_Y)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let col0 = gid.x * TN;
  let row0 = gid.y * TM;
  if (col0 >= u.N || row0 >= u.M) { return; }
  let lastRow = u.M - 1u;
  let K4 = u.K / 4u;
  let N4 = u.N / 4u;
  let aOff = u.aOff / 4u;
  let bOff = u.bOff / 4u;
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

  if (TRANS_A) {
    // Aᵀ·B: A is [K, M]; one k per step, A and B both read as vec4 along their fast axis.
    let M4 = u.M / 4u;
    let ra0 = aOff + row0 / 4u;
    let ra1 = aOff + min(row0 / 4u + 1u, M4 - 1u);
    let cb0 = bOff + col0 / 4u;
    let cb1 = bOff + min(col0 / 4u + 1u, N4 - 1u);
    for (var k = 0u; k < u.K; k++) {
      let bv = b[cb0 + k * N4];
      var dv = vec4<f32>(0.0);
      if (TN > 4u) { dv = b[cb1 + k * N4]; }
      let av = a[ra0 + k * M4];
      a0 += av.x * bv;
      a1 += av.y * bv;
      a2 += av.z * bv;
      a3 += av.w * bv;
      if (TN > 4u) {
        h0 += av.x * dv;
        h1 += av.y * dv;
        h2 += av.z * dv;
        h3 += av.w * dv;
      }
      if (TM > 4u) {
        let av2 = a[ra1 + k * M4];
        a4 += av2.x * bv;
        a5 += av2.y * bv;
        a6 += av2.z * bv;
        a7 += av2.w * bv;
        if (TN > 4u) {
          h4 += av2.x * dv;
          h5 += av2.y * dv;
          h6 += av2.z * dv;
          h7 += av2.w * dv;
        }
      }
    }
  } else {
    let ra0 = aOff + min(row0 + 0u, lastRow) * K4;
    let ra1 = aOff + min(row0 + 1u, lastRow) * K4;
    let ra2 = aOff + min(row0 + 2u, lastRow) * K4;
    let ra3 = aOff + min(row0 + 3u, lastRow) * K4;
    let ra4 = aOff + min(row0 + 4u, lastRow) * K4;
    let ra5 = aOff + min(row0 + 5u, lastRow) * K4;
    let ra6 = aOff + min(row0 + 6u, lastRow) * K4;
    let ra7 = aOff + min(row0 + 7u, lastRow) * K4;
    // A·Bᵀ: B is [N, K]; rows past N are clamped (their results are never stored).
    let lastCol = u.N - 1u;
    let rb0 = bOff + min(col0 + 0u, lastCol) * K4;
    let rb1 = bOff + min(col0 + 1u, lastCol) * K4;
    let rb2 = bOff + min(col0 + 2u, lastCol) * K4;
    let rb3 = bOff + min(col0 + 3u, lastCol) * K4;
    let rb4 = bOff + min(col0 + 4u, lastCol) * K4;
    let rb5 = bOff + min(col0 + 5u, lastCol) * K4;
    let rb6 = bOff + min(col0 + 6u, lastCol) * K4;
    let rb7 = bOff + min(col0 + 7u, lastCol) * K4;
    // A·B: the second column group is clamped to the last one when it lies past N.
    let cg0 = col0 / 4u;
    let cg1 = min(cg0 + 1u, N4 - 1u);
    for (var k = 0u; k < K4; k++) {
      var b0: vec4<f32>;
      var b1: vec4<f32>;
      var b2: vec4<f32>;
      var b3: vec4<f32>;
      var d0 = vec4<f32>(0.0);
      var d1 = vec4<f32>(0.0);
      var d2 = vec4<f32>(0.0);
      var d3 = vec4<f32>(0.0);
      if (TRANS_B) {
        b0 = b[rb0 + k];
        b1 = b[rb1 + k];
        b2 = b[rb2 + k];
        b3 = b[rb3 + k];
        if (TN > 4u) {
          d0 = b[rb4 + k];
          d1 = b[rb5 + k];
          d2 = b[rb6 + k];
          d3 = b[rb7 + k];
        }
      } else {
        let bi = bOff + 4u * k * N4;
        b0 = b[bi + 0u * N4 + cg0];
        b1 = b[bi + 1u * N4 + cg0];
        b2 = b[bi + 2u * N4 + cg0];
        b3 = b[bi + 3u * N4 + cg0];
        if (TN > 4u) {
          d0 = b[bi + 0u * N4 + cg1];
          d1 = b[bi + 1u * N4 + cg1];
          d2 = b[bi + 2u * N4 + cg1];
          d3 = b[bi + 3u * N4 + cg1];
        }
      }
      if (TRANS_B) {
        let v0 = a[ra0 + k]; a0 = dotRow(a0, v0, b0, b1, b2, b3);
        if (TN > 4u) { h0 = dotRow(h0, v0, d0, d1, d2, d3); }
        if (TM > 1u) {
          let v1 = a[ra1 + k]; a1 = dotRow(a1, v1, b0, b1, b2, b3);
          if (TN > 4u) { h1 = dotRow(h1, v1, d0, d1, d2, d3); }
        }
        if (TM > 2u) {
          let v2 = a[ra2 + k]; a2 = dotRow(a2, v2, b0, b1, b2, b3);
          if (TN > 4u) { h2 = dotRow(h2, v2, d0, d1, d2, d3); }
          let v3 = a[ra3 + k]; a3 = dotRow(a3, v3, b0, b1, b2, b3);
          if (TN > 4u) { h3 = dotRow(h3, v3, d0, d1, d2, d3); }
        }
        if (TM > 4u) {
          let v4 = a[ra4 + k]; a4 = dotRow(a4, v4, b0, b1, b2, b3);
          if (TN > 4u) { h4 = dotRow(h4, v4, d0, d1, d2, d3); }
          let v5 = a[ra5 + k]; a5 = dotRow(a5, v5, b0, b1, b2, b3);
          if (TN > 4u) { h5 = dotRow(h5, v5, d0, d1, d2, d3); }
          let v6 = a[ra6 + k]; a6 = dotRow(a6, v6, b0, b1, b2, b3);
          if (TN > 4u) { h6 = dotRow(h6, v6, d0, d1, d2, d3); }
          let v7 = a[ra7 + k]; a7 = dotRow(a7, v7, b0, b1, b2, b3);
          if (TN > 4u) { h7 = dotRow(h7, v7, d0, d1, d2, d3); }
        }
      } else {
        let v0 = a[ra0 + k]; a0 = fmaRow(a0, v0, b0, b1, b2, b3);
        if (TN > 4u) { h0 = fmaRow(h0, v0, d0, d1, d2, d3); }
        if (TM > 1u) {
          let v1 = a[ra1 + k]; a1 = fmaRow(a1, v1, b0, b1, b2, b3);
          if (TN > 4u) { h1 = fmaRow(h1, v1, d0, d1, d2, d3); }
        }
        if (TM > 2u) {
          let v2 = a[ra2 + k]; a2 = fmaRow(a2, v2, b0, b1, b2, b3);
          if (TN > 4u) { h2 = fmaRow(h2, v2, d0, d1, d2, d3); }
          let v3 = a[ra3 + k]; a3 = fmaRow(a3, v3, b0, b1, b2, b3);
          if (TN > 4u) { h3 = fmaRow(h3, v3, d0, d1, d2, d3); }
        }
        if (TM > 4u) {
          let v4 = a[ra4 + k]; a4 = fmaRow(a4, v4, b0, b1, b2, b3);
          if (TN > 4u) { h4 = fmaRow(h4, v4, d0, d1, d2, d3); }
          let v5 = a[ra5 + k]; a5 = fmaRow(a5, v5, b0, b1, b2, b3);
          if (TN > 4u) { h5 = fmaRow(h5, v5, d0, d1, d2, d3); }
          let v6 = a[ra6 + k]; a6 = fmaRow(a6, v6, b0, b1, b2, b3);
          if (TN > 4u) { h6 = fmaRow(h6, v6, d0, d1, d2, d3); }
          let v7 = a[ra7 + k]; a7 = fmaRow(a7, v7, b0, b1, b2, b3);
          if (TN > 4u) { h7 = fmaRow(h7, v7, d0, d1, d2, d3); }
        }
      }
    }
  }

  storeTile(row0, col0, TM, TN > 4u, a0, a1, a2, a3, a4, a5, a6, a7, h0, h1, h2, h3, h4, h5, h6, h7);
}
