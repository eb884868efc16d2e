// GRPO per-token loss and its derivative w.r.t. logp; prepended (by the TS launcher) to grpo_loss.wgsl and
// grpo_loss_backward.wgsl so the forward statistics and the backward gradient share one definition.
//
// Policy term follows verl's compute_policy_loss (verl/trainer/ppo/core_algos.py) exactly:
//   log_ratio = clamp(logp - old_logp, -20, 20); ratio = exp(log_ratio)
//   pg1 = -A·ratio; pg2 = -A·clamp(ratio, 1-eps_low, 1+eps_high); clip1 = max(pg1, pg2)
//   dual-clip: pg3 = -A·c; clip2 = min(pg3, clip1); pg = A < 0 ? clip2 : clip1   (disabled when c <= 1;
//   verl asserts c > 1)
// Truncated IS (TRL vllm_importance_sampling_correction / verl TIS): pg *= min(exp(old_logp - rollout_logp), is_cap),
// detached. KL (verl low_var_kl, k3): x = clamp(ref - logp, ±20), kl = clamp(exp(x) - x - 1, ±10), added as + beta·kl
// after the IS weight.
struct U {
  B: u32, S: u32, lossType: u32, flags: u32,      // flags: bit0 has ref_logp, bit1 has rollout_logp
  epsLow: f32, epsHigh: f32, clipC: f32, beta: f32,
  isCap: f32, maxCompletionLength: f32, normTokens: f32, lossScale: f32,
}
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> logp: array<f32>;
@group(0) @binding(2) var<storage, read> oldLogp: array<f32>;
@group(0) @binding(3) var<storage, read> refLogp: array<f32>;      // a dummy unless flags bit0
@group(0) @binding(4) var<storage, read> rolloutLogp: array<f32>;  // a dummy unless flags bit1
@group(0) @binding(5) var<storage, read> advantages: array<f32>;   // [B]
@group(0) @binding(6) var<storage, read> mask: array<f32>;         // [T] completion mask (0 for prompt and pad)

// Per-sequence statistics slots (seqStats [B, 8]) and the final stats [8] share this order.
const NSTAT: u32 = 8u;
// 0 Σ loss, 1 Σ mask, 2 Σ kl, 3 Σ low-clipped, 4 Σ high-clipped, 5 Σ IS weight, 6 Σ dual-clipped, 7 Σ mismatch k3

struct Tok { loss: f32, dloss: f32, kl: f32, low: f32, high: f32, isw: f32, dual: f32, mismatch: f32 }

fn tokenTerms(t: u32, b: u32) -> Tok {
  let a = advantages[b];
  let lp = logp[t];
  let old = oldLogp[t];
  let d = lp - old;
  let lr = clamp(d, -20.0, 20.0);
  let ratio = exp(lr);
  let pg1 = -a * ratio;
  let pg2 = -a * clamp(ratio, 1.0 - u.epsLow, 1.0 + u.epsHigh);
  let clip1 = max(pg1, pg2);
  // d(pg1)/d(logp) = -A·ratio inside the log-ratio clamp; the clipped branch is constant (ties have pg1 == pg2,
  // where both branches carry the same derivative).
  var dpg = select(0.0, -a * ratio, pg1 >= pg2 && d >= -20.0 && d <= 20.0);
  var pg = clip1;
  var dual = 0.0;
  if (u.clipC > 1.0 && a < 0.0) {
    let pg3 = -a * u.clipC;
    if (pg3 < clip1) { pg = pg3; dpg = 0.0; }
    if (clip1 > pg3) { dual = 1.0; }   // verl pg_clipfrac_lower
  }
  var isw = 1.0;
  var mismatch = 0.0;
  if ((u.flags & 2u) != 0u) {
    let dr = old - rolloutLogp[t];
    isw = min(exp(dr), u.isCap);
    mismatch = exp(dr) - 1.0 - dr; // k3 estimate of KL(rollout || learner) on rollout samples
  }
  var kl = 0.0;
  var dkl = 0.0;
  if ((u.flags & 1u) != 0u) {
    // verl low_var_kl: x clamped to ±20, the estimate to ±10; the gradient is 0 where either clamp acts.
    let x0 = refLogp[t] - lp;
    let x = clamp(x0, -20.0, 20.0);
    let k = exp(x) - x - 1.0;
    kl = clamp(k, -10.0, 10.0);
    dkl = select(0.0, 1.0 - exp(x), x0 >= -20.0 && x0 <= 20.0 && k <= 10.0);
  }
  // TRL clip metrics: low = ratio < 1-eps_low with A < 0, high = ratio > 1+eps_high with A > 0.
  let low = select(0.0, 1.0, ratio < 1.0 - u.epsLow && a < 0.0);
  let high = select(0.0, 1.0, ratio > 1.0 + u.epsHigh && a > 0.0);
  return Tok(isw * pg + u.beta * kl, isw * dpg + u.beta * dkl, kl, low, high, isw, dual, mismatch);
}
