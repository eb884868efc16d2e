// GRPO loss, pass 1: one workgroup per sequence sums the masked per-token terms into seqStats [B, 8].
// (grpo_loss_common.wgsl is prepended.)
@group(0) @binding(7) var<storage, read_write> seqStats: array<f32>;

override WG: u32 = 256; // power of two
var<workgroup> sm: array<f32, WG * 8u>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let b = wid.x + wid.y * nwg.x;
  if (b >= u.B) { return; } // uniform per workgroup
  var acc: array<f32, 8>;
  for (var k = 0u; k < NSTAT; k++) { acc[k] = 0.0; }
  for (var s = lid; s < u.S; s += WG) {
    let t = b * u.S + s;
    let w = mask[t];
    // Skip, not multiply: prompt/pad positions may hold garbage (NaN) log-probs.
    if (w == 0.0) { continue; }
    let k = tokenTerms(t, b);
    acc[0] += w * k.loss;
    acc[1] += w;
    acc[2] += w * k.kl;
    acc[3] += w * k.low;
    acc[4] += w * k.high;
    acc[5] += w * k.isw;
    acc[6] += w * k.dual;
    acc[7] += w * k.mismatch;
  }
  for (var k = 0u; k < NSTAT; k++) { sm[lid * NSTAT + k] = acc[k]; }
  workgroupBarrier();
  for (var stride = WG / 2u; stride > 0u; stride >>= 1u) {
    if (lid < stride) {
      for (var k = 0u; k < NSTAT; k++) { sm[lid * NSTAT + k] += sm[(lid + stride) * NSTAT + k]; }
    }
    workgroupBarrier();
  }
  if (lid < NSTAT) { seqStats[b * NSTAT + lid] = sm[lid]; }
}
