// The per-token backward passes of the sequence losses (grpo_loss_backward.wgsl, kto_loss_backward.wgsl), prepended
// by their launchers: one invocation per token of the B·S grid. The kernel declares u (with B, S), mask and dlogp.
override WG: u32 = 256;

// Token t and its sequence b for this invocation, and its mask weight w. live is false past the grid and for masked
// tokens (prompt, pad), whose dlogp is set to 0 here, so the kernel only computes live tokens' gradients.
struct LossToken { live: bool, t: u32, b: u32, w: f32 }

fn lossToken(gid: vec3<u32>, nwg: vec3<u32>) -> LossToken {
  let t = gid.x + gid.y * nwg.x * WG;
  var tk = LossToken(false, t, 0u, 0.0);
  if (t < u.B * u.S) {
    tk.b = t / u.S;
    tk.w = mask[t];
    if (tk.w == 0.0) { dlogp[t] = 0.0; } else { tk.live = true; }
  }
  return tk;
}
