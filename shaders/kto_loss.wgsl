// KTO loss, pass 1: one workgroup per sequence sums r_b = Σ mask·(logp − ref) and n_b = Σ mask into
// seqStats [B, 2]. (kto_loss_common.wgsl is prepended.)
@group(0) @binding(1) var<storage, read> logp: array<f32>;
@group(0) @binding(2) var<storage, read> refLogp: array<f32>;
@group(0) @binding(3) var<storage, read> mask: array<f32>; // [T] completion mask (0 for prompt and pad)
@group(0) @binding(4) var<storage, read_write> seqStats: array<f32>;

override WG: u32 = 256; // power of two
var<workgroup> sm: array<vec2<f32>, WG>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let b = wid.x + wid.y * nwg.x;
  if (b >= u.B) { return; } // uniform per workgroup
  var acc = vec2<f32>(0.0, 0.0);
  for (var s = lid; s < u.S; s += WG) {
    let t = b * u.S + s;
    let w = mask[t];
    // Skip, not multiply: prompt/pad positions may hold garbage (NaN) log-probs.
    if (w == 0.0) { continue; }
    acc += vec2<f32>(w * (logp[t] - refLogp[t]), w);
  }
  sm[lid] = acc;
  workgroupBarrier();
  for (var stride = WG / 2u; stride > 0u; stride >>= 1u) {
    if (lid < stride) { sm[lid] += sm[lid + stride]; }
    workgroupBarrier();
  }
  if (lid == 0u) {
    seqStats[b * 2u] = sm[0].x;
    seqStats[b * 2u + 1u] = sm[0].y;
  }
}
