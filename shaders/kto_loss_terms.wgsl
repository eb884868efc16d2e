// KTO per-sequence loss terms; prepended (after kto_loss_common.wgsl) to the reduce and backward passes.
@group(0) @binding(1) var<storage, read> labels: array<f32>;  // [B]

fn sigmoid(x: f32) -> f32 {
  // exp of a large positive argument is inf and 1/inf = 0: the limit, no NaN.
  return 1.0 / (1.0 + exp(-x));
}

/** ℓ_b and dℓ_b/dr_b for one sequence, given its label, implied reward r and the reference point z. */
fn seqTerms(label: f32, r: f32, z: f32) -> vec2<f32> {
  // 1 − σ(x) is written σ(−x): it keeps its precision where σ(x) rounds to 1 in f32.
  if (label > 0.0) {
    let x = u.beta * (r - z);
    let q = sigmoid(-x);
    return vec2<f32>(u.lambdaD * q, -u.lambdaD * u.beta * sigmoid(x) * q);
  }
  if (label < 0.0) {
    let x = u.beta * (z - r);
    let q = sigmoid(-x);
    return vec2<f32>(u.lambdaU * q, u.lambdaU * u.beta * sigmoid(x) * q);
  }
  return vec2<f32>(0.0, 0.0);
}
