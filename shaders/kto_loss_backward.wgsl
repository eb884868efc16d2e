// KTO loss, pass 3: dL/dlogp_t = lossScale · mask_t · dℓ_b/dr_b / max(1, #labelled), z detached (read from stats[1],
// the labelled counts from stats[4..5], r_b from seqStats). (kto_loss_common.wgsl, kto_loss_terms.wgsl and
// common/loss_token.wgsl are prepended.)
@group(0) @binding(2) var<storage, read> mask: array<f32>;
@group(0) @binding(3) var<storage, read> seqStats: array<f32>;
@group(0) @binding(4) var<storage, read> stats: array<f32>;
@group(0) @binding(5) var<storage, read_write> dlogp: array<f32>;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let tk = lossToken(gid, nwg);
  if (!tk.live) { return; }
  let d = seqTerms(labels[tk.b], seqStats[tk.b * 2u], stats[1]).y;
  dlogp[tk.t] = u.lossScale * tk.w * d / max(1.0, stats[4] + stats[5]);
}
