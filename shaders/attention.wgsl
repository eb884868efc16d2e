// Causal grouped-query self-attention forward with an online softmax (one pass over the keys, no score matrix).
// q [T, Hq, Dh], k/v [T, Hkv, Dh], out [T, Hq, Dh], lse [T, Hq]; T = B·S, causal within each length-S sequence,
// query head h reads kv head h / (Hq / Hkv). keyMask [T] (u32 or f32: any non-zero bit pattern = valid) hides pad
// keys. A query with no valid key gets out = 0 and lse = -3e38. One thread per (row, query head); Dh % 4 == 0,
// Dh <= 4·MAXD4.
struct U { B: u32, S: u32, Hq: u32, Hkv: u32, Dh: u32, hasMask: u32, scale: f32, _pad: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> q: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> k: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> v: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> keyMask: array<u32>; // a dummy unless hasMask
@group(0) @binding(5) var<storage, read_write> out: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> lse: array<f32>;

override WG: u32 = 64;
const MAXD4: u32 = 32u;
const NEG_BIG: f32 = -3.0e38;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let idx = gid.x + gid.y * nwg.x * WG;
  if (idx >= u.B * u.S * u.Hq) { return; }
  // Heads fastest: neighbouring threads share the row, hence the same key range (no divergence) and, within a
  // GQA group, the same keys.
  let h = idx % u.Hq;
  let row = idx / u.Hq;
  let g = h / (u.Hq / u.Hkv);
  let d4 = u.Dh / 4u;
  let seqStart = row - row % u.S;
  var qr: array<vec4<f32>, MAXD4>;
  var acc: array<vec4<f32>, MAXD4>;
  let qBase = idx * d4;
  for (var d = 0u; d < d4; d++) {
    qr[d] = q[qBase + d] * u.scale;
    acc[d] = vec4<f32>(0.0);
  }
  var m = NEG_BIG;
  var l = 0.0;
  for (var j = seqStart; j <= row; j++) {
    if (u.hasMask != 0u && keyMask[j] == 0u) { continue; }
    let kBase = (j * u.Hkv + g) * d4;
    var s = 0.0;
    for (var d = 0u; d < d4; d++) { s += dot(qr[d], k[kBase + d]); }
    if (s > m) {
      let c = exp(m - s);
      l = l * c + 1.0;
      for (var d = 0u; d < d4; d++) { acc[d] = acc[d] * c + v[kBase + d]; }
      m = s;
    } else {
      let p = exp(s - m);
      l += p;
      for (var d = 0u; d < d4; d++) { acc[d] += p * v[kBase + d]; }
    }
  }
  let inv = select(0.0, 1.0 / l, l > 0.0);
  for (var d = 0u; d < d4; d++) { out[qBase + d] = acc[d] * inv; }
  lse[idx] = select(NEG_BIG, m + log(l), l > 0.0);
}
