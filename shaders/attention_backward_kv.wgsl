// Attention backward, pass 2 (per key row and kv head, so no float atomics): sums over the later query rows i of
// the sequence and over the Hq/Hkv query heads of the group: dv_j = Σ P_ij dO_i, dk_j = scale · Σ P_ij (dP_ij − D_i) q_i.
// A masked key gets dk = dv = 0. Same layout as attention.wgsl; D comes from attention_backward_q.wgsl.
struct U { B: u32, S: u32, Hq: u32, Hkv: u32, Dh: u32, hasMask: u32, scale: f32, _pad: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> q: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> k: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> v: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> keyMask: array<u32>;
@group(0) @binding(5) var<storage, read> dout: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read> lse: array<f32>;
@group(0) @binding(7) var<storage, read> dsum: array<f32>;
@group(0) @binding(8) var<storage, read_write> dk: array<vec4<f32>>;
@group(0) @binding(9) var<storage, read_write> dv: array<vec4<f32>>;

override WG: u32 = 64;
const MAXD4: u32 = 32u;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let idx = gid.x + gid.y * nwg.x * WG;
  if (idx >= u.B * u.S * u.Hkv) { return; }
  let g = idx % u.Hkv;
  let j = idx / u.Hkv;
  let d4 = u.Dh / 4u;
  let group = u.Hq / u.Hkv;
  let seqEnd = j - j % u.S + u.S;
  let base = idx * d4;
  var kr: array<vec4<f32>, MAXD4>;
  var vr: array<vec4<f32>, MAXD4>;
  var dkAcc: array<vec4<f32>, MAXD4>;
  var dvAcc: array<vec4<f32>, MAXD4>;
  for (var d = 0u; d < d4; d++) {
    kr[d] = k[base + d] * u.scale;
    vr[d] = v[base + d];
    dkAcc[d] = vec4<f32>(0.0);
    dvAcc[d] = vec4<f32>(0.0);
  }
  if (u.hasMask == 0u || keyMask[j] != 0u) {
    for (var i = j; i < seqEnd; i++) {
      for (var hh = 0u; hh < group; hh++) {
        let qi = i * u.Hq + g * group + hh;
        let qBase = qi * d4;
        var s = 0.0;
        var dp = 0.0;
        for (var d = 0u; d < d4; d++) {
          s += dot(kr[d], q[qBase + d]);
          dp += dot(vr[d], dout[qBase + d]);
        }
        let p = exp(s - lse[qi]);
        let ds = p * (dp - dsum[qi]);
        for (var d = 0u; d < d4; d++) {
          dvAcc[d] += p * dout[qBase + d];
          dkAcc[d] += ds * q[qBase + d];
        }
      }
    }
  }
  for (var d = 0u; d < d4; d++) {
    dk[base + d] = dkAcc[d] * u.scale;
    dv[base + d] = dvAcc[d];
  }
}
