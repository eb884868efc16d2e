// Decode attention: one new query token per sequence against its KV cache. q [B, Hq, Dh], caches
// [B, Hkv, maxLen, Dh], lens u32 [B] (keys 0..lens[b]-1 are attended, the new token's own k/v included),
// keyValid [B, maxLen] (u32 or f32, non-zero = valid; hides left padding), out [B, Hq, Dh]. One workgroup per
// (sequence, query head): threads score a tile of WG keys in parallel, then each thread accumulates its own
// output dims over the tile, with an online softmax across tiles. Dh <= 4·WG.
struct U { B: u32, Hq: u32, Hkv: u32, Dh: u32, maxLen: u32, hasMask: u32, scale: f32, _pad: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read> kCache: array<f32>;
@group(0) @binding(3) var<storage, read> vCache: array<f32>;
@group(0) @binding(4) var<storage, read> lens: array<u32>;
@group(0) @binding(5) var<storage, read> keyValid: array<u32>; // a dummy unless hasMask
@group(0) @binding(6) var<storage, read_write> out: array<f32>;

override WG: u32 = 64;
const NEG_BIG: f32 = -3.0e38;
const MAXQ: u32 = 512u; // Dh <= 512

var<workgroup> qs: array<f32, MAXQ>;
var<workgroup> ps: array<f32, WG>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let pair = wid.x + wid.y * nwg.x;
  if (pair >= u.B * u.Hq) { return; } // uniform per workgroup
  let b = pair / u.Hq;
  let h = pair % u.Hq;
  let g = h / (u.Hq / u.Hkv);
  let len = min(lens[b], u.maxLen);
  let cacheBase = (b * u.Hkv + g) * u.maxLen;
  for (var d = lid; d < u.Dh; d += WG) { qs[d] = q[pair * u.Dh + d] * u.scale; }
  workgroupBarrier();
  var acc = vec4<f32>(0.0); // this thread's dims lid, lid+WG, lid+2WG, lid+3WG
  var m = NEG_BIG;
  var l = 0.0;
  for (var tile = 0u; tile < len; tile += WG) {
    let j = tile + lid;
    var s = NEG_BIG;
    if (j < len && (u.hasMask == 0u || keyValid[b * u.maxLen + j] != 0u)) {
      let kb = (cacheBase + j) * u.Dh;
      s = 0.0;
      for (var d = 0u; d < u.Dh; d++) { s += qs[d] * kCache[kb + d]; }
    }
    ps[lid] = s;
    workgroupBarrier();
    var tm = m;
    for (var i = 0u; i < WG; i++) { tm = max(tm, ps[i]); }
    workgroupBarrier();
    // Masked slots keep NEG_BIG and contribute exp(-huge) = 0, unless everything so far is masked (tm = NEG_BIG).
    ps[lid] = select(0.0, exp(s - tm), s > NEG_BIG);
    workgroupBarrier();
    let c = exp(m - tm);
    var tl = 0.0;
    var ta = vec4<f32>(0.0);
    let n = min(WG, len - tile);
    for (var i = 0u; i < n; i++) {
      let p = ps[i];
      tl += p;
      if (p != 0.0) {
        let vb = (cacheBase + tile + i) * u.Dh;
        for (var r = 0u; r < 4u; r++) {
          let d = lid + r * WG;
          if (d < u.Dh) { ta[r] += p * vCache[vb + d]; }
        }
      }
    }
    l = l * c + tl;
    acc = acc * c + ta;
    m = tm;
    workgroupBarrier();
  }
  let inv = select(0.0, 1.0 / l, l > 0.0);
  for (var r = 0u; r < 4u; r++) {
    let d = lid + r * WG;
    if (d < u.Dh) { out[pair * u.Dh + d] = acc[r] * inv; }
  }
}
