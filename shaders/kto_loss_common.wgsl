// KTO loss (Ethayarajh et al. 2024), shared uniforms; prepended (by the TS launcher) to each of the three passes.
// Per sequence b the implied reward is r_b = Σ_t mask_t·(logp_t − ref_t); z is the detached reference point
// max(0, mean_b r_b) over the sequences with completion tokens (or the uniform zRef when flags bit0).
//   label +1 (desirable):   ℓ_b = λD·(1 − σ(β(r_b − z)))
//   label −1 (undesirable): ℓ_b = λU·(1 − σ(β(z − r_b)))
//   label 0: not trained on (its r_b still enters z).
// loss = lossScale · Σ_b ℓ_b / max(1, #labelled).
struct U {
  B: u32, S: u32, flags: u32, pad0: u32,
  beta: f32, lambdaD: f32, lambdaU: f32, lossScale: f32,
  zRef: f32, pad1: f32, pad2: f32, pad3: f32,
}
@group(0) @binding(0) var<uniform> u: U;
