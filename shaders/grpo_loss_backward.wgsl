// GRPO loss, pass 3: dL/dlogp per token = lossScale · norm_b · mask_t · dℓ_t/dlogp_t, where norm_b is the
// loss_type's normaliser (grpo: 1/(B·max(1, n_b)); dr_grpo: 1/(B·L); dapo: 1/N). Reads n_b from seqStats and
// N from stats[6] on the GPU. (grpo_loss_common.wgsl and common/loss_token.wgsl are prepended.)
@group(0) @binding(7) var<storage, read> seqStats: array<f32>;
@group(0) @binding(8) var<storage, read> stats: array<f32>;
@group(0) @binding(9) var<storage, read_write> dlogp: array<f32>;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let tk = lossToken(gid, nwg);
  if (!tk.live) { return; }
  var norm = 0.0;
  if (u.lossType == 0u) {
    norm = 1.0 / (f32(u.B) * max(1.0, seqStats[tk.b * 8u + 1u]));
  } else if (u.lossType == 1u) {
    norm = 1.0 / (f32(u.B) * u.maxCompletionLength);
  } else {
    norm = 1.0 / select(max(1.0, stats[6]), u.normTokens, u.normTokens > 0.0);
  }
  dlogp[tk.t] = u.lossScale * norm * tk.w * tokenTerms(tk.t, tk.b).dloss;
}
