// GRPO loss, pass 3: dL/dlogp per token = lossScale · norm_b · mask_t · dℓ_t/dlogp_t, where norm_b is the
// loss_type's normaliser (grpo: 1/(B·max(1, n_b)); dr_grpo: 1/(B·L); dapo: 1/N). Reads n_b from seqStats and
// N from stats[6] on the GPU. (grpo_loss_common.wgsl is prepended.)
@group(0) @binding(7) var<storage, read> seqStats: array<f32>;
@group(0) @binding(8) var<storage, read> stats: array<f32>;
@group(0) @binding(9) var<storage, read_write> dlogp: array<f32>;

override WG: u32 = 256;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let t = gid.x + gid.y * nwg.x * WG;
  if (t >= u.B * u.S) { return; }
  let b = t / u.S;
  let w = mask[t];
  if (w == 0.0) { dlogp[t] = 0.0; return; }
  var norm = 0.0;
  if (u.lossType == 0u) {
    norm = 1.0 / (f32(u.B) * max(1.0, seqStats[b * 8u + 1u]));
  } else if (u.lossType == 1u) {
    norm = 1.0 / (f32(u.B) * u.maxCompletionLength);
  } else {
    norm = 1.0 / select(max(1.0, stats[6]), u.normTokens, u.normTokens > 0.0);
  }
  dlogp[t] = u.lossScale * norm * w * tokenTerms(t, b).dloss;
}
