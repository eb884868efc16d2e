// Decode attention, one invocation per (sequence, query head) and no barriers: the variant for CPU-emulated
// WebGPU (SwiftShader), where workgroup barriers are costly. Same bindings and semantics as attention_decode.wgsl;
// Dh % 4 == 0, Dh <= 4·MAXD4.
struct U { B: u32, Hq: u32, Hkv: u32, Dh: u32, maxLen: u32, hasMask: u32, scale: f32, _pad: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> q: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> kCache: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> vCache: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> lens: array<u32>;
@group(0) @binding(5) var<storage, read> keyValid: array<u32>; // a dummy unless hasMask
@group(0) @binding(6) var<storage, read_write> out: array<vec4<f32>>;

override WG: u32 = 8;
const MAXD4: u32 = 32u;
const NEG_BIG: f32 = -3.0e38;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let pair = gid.x + gid.y * nwg.x * WG;
  if (pair >= u.B * u.Hq) { return; }
  let b = pair / u.Hq;
  let g = (pair % u.Hq) / (u.Hq / u.Hkv);
  let d4 = u.Dh / 4u;
  let len = min(lens[b], u.maxLen);
  let cacheBase = (b * u.Hkv + g) * u.maxLen;
  var qr: array<vec4<f32>, MAXD4>;
  var acc: array<vec4<f32>, MAXD4>;
  for (var d = 0u; d < d4; d++) {
    qr[d] = q[pair * d4 + d] * u.scale;
    acc[d] = vec4<f32>(0.0);
  }
  var m = NEG_BIG;
  var l = 0.0;
  for (var j = 0u; j < len; j++) {
    if (u.hasMask != 0u && keyValid[b * u.maxLen + j] == 0u) { continue; }
    let kb = (cacheBase + j) * d4;
    var s = 0.0;
    for (var d = 0u; d < d4; d++) { s += dot(qr[d], kCache[kb + d]); }
    if (s > m) {
      let c = exp(m - s);
      l = l * c + 1.0;
      for (var d = 0u; d < d4; d++) { acc[d] = acc[d] * c + vCache[kb + d]; }
      m = s;
    } else {
      let p = exp(s - m);
      l += p;
      for (var d = 0u; d < d4; d++) { acc[d] += p * vCache[kb + d]; }
    }
  }
  let inv = select(0.0, 1.0 / l, l > 0.0);
  for (var d = 0u; d < d4; d++) { out[pair * d4 + d] = acc[d] * inv; }
}
