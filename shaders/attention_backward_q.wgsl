// Attention backward, pass 1 (per query rows and head): D = Σ_d dO·O (saved for pass 2) and
// dq = scale · Σ_j P_ij (dP_ij − D_i) k_j with P_ij = exp(s_ij − lse_i), dP_ij = dO_i · v_j. Same layout, masking
// and register tiling as attention.wgsl (RB query rows per invocation, keys in blocks of 4).
// Uniforms, bindings 0-4, tile constants and row indexing: common/attention_rows.wgsl, prepended by the launcher.
@group(0) @binding(5) var<storage, read> out: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read> dout: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read> lse: array<f32>;
@group(0) @binding(8) var<storage, read_write> dsum: array<f32>; // D [T, Hq]
@group(0) @binding(9) var<storage, read_write> dq: array<vec4<f32>>;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let blk = rowBlock(gid, nwg, u.Hq);
  if (!blk.ok) { return; }
  let DH4 = u.Dh / 4u;
  let RB = u.rows;
  let h = blk.head;
  let g = h / (u.Hq / u.Hkv);
  let row0 = blk.first;
  let rowLast = blk.last;
  // hasMask = 2: masked query rows output a constant 0, so their dq is 0 and the key loop stops at the last live row.
  let maskQ = u.hasMask == 2u;
  let lv = liveRows(row0, rowLast);
  let live = lv.last;
  if (!lv.any) {
    for (var r = row0; r <= rowLast; r++) {
      for (var d = 0u; d < DH4; d++) { dq[(r * u.Hq + h) * DH4 + d] = vec4<f32>(0.0); }
      dsum[r * u.Hq + h] = 0.0;
    }
    return;
  }
  var qr: array<vec4<f32>, TILE>;
  var dor: array<vec4<f32>, TILE>;
  var acc: array<vec4<f32>, TILE>;
  var lr: array<f32, MAXRB>;
  var Dr: array<f32, MAXRB>;
  for (var r = 0u; r < RB; r++) {
    let qi = min(row0 + r, rowLast) * u.Hq + h;
    var D = 0.0;
    for (var d = 0u; d < DH4; d++) {
      let i = r * DH4 + d;
      qr[i] = q[qi * DH4 + d] * u.scale;
      dor[i] = dout[qi * DH4 + d];
      D += dot(dor[i], out[qi * DH4 + d]);
      acc[i] = vec4<f32>(0.0);
    }
    Dr[r] = D;
    lr[r] = lse[qi];
    if (row0 + r <= rowLast) { dsum[qi] = select(D, 0.0, maskQ && keyMask[row0 + r] == 0u); }
  }
  for (var j0 = firstKey(blk.seqStart, live); j0 <= live; j0 += 4u) {
    let kb0 = (j0 * u.Hkv + g) * DH4;
    let kb1 = (min(j0 + 1u, rowLast) * u.Hkv + g) * DH4;
    let kb2 = (min(j0 + 2u, rowLast) * u.Hkv + g) * DH4;
    let kb3 = (min(j0 + 3u, rowLast) * u.Hkv + g) * DH4;
    var sc: array<vec4<f32>, MAXRB>;
    var dp: array<vec4<f32>, MAXRB>;
    for (var r = 0u; r < RB; r++) {
      sc[r] = vec4<f32>(0.0);
      dp[r] = vec4<f32>(0.0);
    }
    for (var d = 0u; d < DH4; d++) {
      let k0 = k[kb0 + d];
      let k1 = k[kb1 + d];
      let k2 = k[kb2 + d];
      let k3 = k[kb3 + d];
      let v0 = v[kb0 + d];
      let v1 = v[kb1 + d];
      let v2 = v[kb2 + d];
      let v3 = v[kb3 + d];
      for (var r = 0u; r < RB; r++) {
        let qv = qr[r * DH4 + d];
        let ov = dor[r * DH4 + d];
        sc[r] += vec4<f32>(dot(qv, k0), dot(qv, k1), dot(qv, k2), dot(qv, k3));
        dp[r] += vec4<f32>(dot(ov, v0), dot(ov, v1), dot(ov, v2), dot(ov, v3));
      }
    }
    let ok = vec4<bool>(keyOk(j0, rowLast), keyOk(j0 + 1u, rowLast), keyOk(j0 + 2u, rowLast), keyOk(j0 + 3u, rowLast));
    var ds: array<vec4<f32>, MAXRB>;
    for (var r = 0u; r < RB; r++) {
      let row = row0 + r;
      let okr = ok & vec4<bool>(j0 <= row, j0 + 1u <= row, j0 + 2u <= row, j0 + 3u <= row);
      let p = select(vec4<f32>(0.0), exp(sc[r] - lr[r]), okr);
      ds[r] = p * (dp[r] - Dr[r]);
    }
    for (var d = 0u; d < DH4; d++) {
      let k0 = k[kb0 + d];
      let k1 = k[kb1 + d];
      let k2 = k[kb2 + d];
      let k3 = k[kb3 + d];
      for (var r = 0u; r < RB; r++) {
        let w = ds[r];
        let i = r * DH4 + d;
        acc[i] += w.x * k0 + w.y * k1 + w.z * k2 + w.w * k3;
      }
    }
  }
  for (var r = 0u; r < RB; r++) {
    let row = row0 + r;
    if (row > rowLast) { break; }
    let base = (row * u.Hq + h) * DH4;
    // A masked row's lse is -3e38, so its acc may hold inf/NaN: select, never multiply by 0.
    let pad = maskQ && keyMask[row] == 0u;
    for (var d = 0u; d < DH4; d++) { dq[base + d] = select(acc[r * DH4 + d] * u.scale, vec4<f32>(0.0), pad); }
  }
}
