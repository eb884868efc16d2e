// Attention backward, pass 1 (per query row and head): D = Σ_d dO·O (saved for pass 2) and
// dq = scale · Σ_j P_ij (dP_ij − D) k_j with P_ij = exp(s_ij − lse_i), dP_ij = dO_i · v_j. Same layout as attention.wgsl.
struct U { B: u32, S: u32, Hq: u32, Hkv: u32, Dh: u32, hasMask: u32, scale: f32, _pad: u32 }
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

override WG: u32 = 64;
const MAXD4: u32 = 32u;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let idx = gid.x + gid.y * nwg.x * WG;
  if (idx >= u.B * u.S * u.Hq) { return; }
  let h = idx % u.Hq;
  let row = idx / u.Hq;
  let g = h / (u.Hq / u.Hkv);
  let d4 = u.Dh / 4u;
  let seqStart = row - row % u.S;
  let base = idx * d4;
  var qr: array<vec4<f32>, MAXD4>;
  var dor: array<vec4<f32>, MAXD4>;
  var acc: array<vec4<f32>, MAXD4>;
  var D = 0.0;
  for (var d = 0u; d < d4; d++) {
    qr[d] = q[base + d] * u.scale;
    dor[d] = dout[base + d];
    D += dot(dor[d], out[base + d]);
    acc[d] = vec4<f32>(0.0);
  }
  dsum[idx] = D;
  let l = lse[idx];
  for (var j = seqStart; j <= row; j++) {
    if (u.hasMask != 0u && keyMask[j] == 0u) { continue; }
    let kBase = (j * u.Hkv + g) * d4;
    var s = 0.0;
    var dp = 0.0;
    for (var d = 0u; d < d4; d++) {
      s += dot(qr[d], k[kBase + d]);
      dp += dot(dor[d], v[kBase + d]);
    }
    let ds = exp(s - l) * (dp - D);
    for (var d = 0u; d < d4; d++) { acc[d] += ds * k[kBase + d]; }
  }
  for (var d = 0u; d < d4; d++) { dq[base + d] = acc[d] * u.scale; }
}
