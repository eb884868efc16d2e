// Attention backward, pass 1 (per query rows and head): D = Σ_d dO·O (saved for pass 2) and
// dq = scale · Σ_j P_ij (dP_ij − D_i) k_j with P_ij = exp(s_ij − lse_i), dP_ij = dO_i · v_j. Same layout, masking
// and register tiling as attention.wgsl (RB query rows per invocation, keys in blocks of 4).
struct U { B: u32, S: u32, Hq: u32, Hkv: u32, Dh: u32, hasMask: u32, scale: f32, rows: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> q: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> k: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> v: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> keyMask: array<u32>;
@group(0) @binding(5) var<storage, read> out: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read> dout: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read> lse: array<f32>;
@group(0) @binding(8) var<storage, read_write> dsum: array<f32>; // D [T, Hq]
@group(0) @binding(9) var<storage, read_write> dq: array<vec4<f32>>;

override WG: u32 = 16;
const TILE: u32 = 64u; // private tile: rows · Dh/4 <= TILE, rows <= MAXRB (checked by the launcher)
const MAXRB: u32 = 8u;

fn keyOk(j: u32, last: u32) -> bool {
  return j <= last && (u.hasMask == 0u || keyMask[j] != 0u);
}

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let idx = gid.x + gid.y * nwg.x * WG;
  let DH4 = u.Dh / 4u;
  let RB = u.rows;
  let chunks = (u.S + RB - 1u) / RB;
  if (idx >= u.B * chunks * u.Hq) { return; }
  let h = idx % u.Hq;
  let chunk = (idx / u.Hq) % chunks;
  let b = idx / (u.Hq * chunks);
  let g = h / (u.Hq / u.Hkv);
  let seqStart = b * u.S;
  let row0 = seqStart + chunk * RB;
  let rowLast = min(row0 + RB, seqStart + u.S) - 1u;
  // hasMask = 2: masked query rows output a constant 0, so their dq is 0 and the key loop stops at the last live row.
  let maskQ = u.hasMask == 2u;
  var live = rowLast;
  var anyLive = true;
  if (maskQ) {
    anyLive = false;
    for (var r = row0; r <= rowLast; r++) {
      if (keyMask[r] != 0u) { live = r; anyLive = true; }
    }
  }
  if (!anyLive) {
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
  // Masked queries also mean left pads are skipped: keys before the sequence's first valid one are no-ops.
  var jStart = seqStart;
  if (maskQ) {
    while (jStart < live && keyMask[jStart] == 0u) { jStart += 1u; }
  }
  for (var j0 = jStart; j0 <= live; j0 += 4u) {
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
