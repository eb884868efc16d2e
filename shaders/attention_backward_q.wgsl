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
  // hasMask = 2: masked query rows output a constant 0, so their dq and D are 0 and the key loop stops at the last
  // live row (queryBlock).
  let qb = queryBlock(gid, nwg);
  if (!qb.ok) { return; }
  let DH4 = u.Dh / 4u;
  let RB = u.rows;
  var qr: array<vec4<f32>, TILE>;
  var dor: array<vec4<f32>, TILE>;
  var acc = array<vec4<f32>, TILE>();
  var lr: array<f32, MAXRB>;
  var Dr: array<f32, MAXRB>;
  for (var r = 0u; r < RB; r++) {
    let qi = min(qb.first + r, qb.last) * u.Hq + qb.h;
    var D = 0.0;
    for (var d = 0u; d < DH4; d++) {
      let i = r * DH4 + d;
      qr[i] = q[qi * DH4 + d] * u.scale;
      dor[i] = dout[qi * DH4 + d];
      D += dot(dor[i], out[qi * DH4 + d]);
    }
    Dr[r] = D;
    lr[r] = lse[qi];
    if (qb.first + r <= qb.last) { dsum[qi] = select(D, 0.0, maskedQuery(qb.first + r)); }
  }
  for (var j0 = qb.key0; j0 <= qb.live; j0 += 4u) {
    let kb = keyBlock(j0, qb.g, qb.last);
    var sc = array<vec4<f32>, MAXRB>();
    var dp = array<vec4<f32>, MAXRB>();
    for (var d = 0u; d < DH4; d++) {
      let kd = kRows(kb, d);
      let vd = vRows(kb, d);
      for (var r = 0u; r < RB; r++) {
        let qv = qr[r * DH4 + d];
        let ov = dor[r * DH4 + d];
        sc[r] += vec4<f32>(dot(qv, kd[0]), dot(qv, kd[1]), dot(qv, kd[2]), dot(qv, kd[3]));
        dp[r] += vec4<f32>(dot(ov, vd[0]), dot(ov, vd[1]), dot(ov, vd[2]), dot(ov, vd[3]));
      }
    }
    let ok = keyBlockOk(j0, qb.last);
    var ds: array<vec4<f32>, MAXRB>;
    for (var r = 0u; r < RB; r++) {
      let p = select(vec4<f32>(0.0), exp(sc[r] - lr[r]), causalOk(ok, j0, qb.first + r));
      ds[r] = p * (dp[r] - Dr[r]);
    }
    for (var d = 0u; d < DH4; d++) {
      let kd = kRows(kb, d);
      for (var r = 0u; r < RB; r++) {
        let w = ds[r];
        let i = r * DH4 + d;
        acc[i] += w.x * kd[0] + w.y * kd[1] + w.z * kd[2] + w.w * kd[3];
      }
    }
  }
  for (var r = 0u; r < RB; r++) {
    let row = qb.first + r;
    if (row > qb.last) { break; }
    let base = (row * u.Hq + qb.h) * DH4;
    // A masked row's lse is -3e38, so its acc may hold inf/NaN: select, never multiply by 0.
    let pad = maskedQuery(row);
    for (var d = 0u; d < DH4; d++) { dq[base + d] = select(acc[r * DH4 + d] * u.scale, vec4<f32>(0.0), pad); }
  }
}
