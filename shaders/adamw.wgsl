// AdamW over one flat parameter buffer (PyTorch semantics: decoupled decay p *= 1 - lr*wd, then the Adam step with
// bias correction), gradients scaled by the clip coefficient that gradnorm left on the GPU. Decay applies to every
// element, or (masked = 1) only to elements whose bit is set in decayMask (bit i%32 of word i/32), so a per-tensor
// choice (e.g. no decay on norms and biases) is possible. Also `fill`, to zero gradient buffers between steps.
struct U {
  n: u32, lr: f32, beta1: f32, beta2: f32,
  eps: f32, wd: f32, stepSize: f32, bc2Sqrt: f32,
  masked: u32, pad0: u32, pad1: u32, pad2: u32,
}
@group(0) @binding(0) var<uniform> u: U;

override WG: u32 = 256;

@group(0) @binding(1) var<storage, read> grads: array<f32>;
@group(0) @binding(2) var<storage, read> coef: array<f32>; // gradnorm output: [norm, clip, nonFinite, sumsq]
@group(0) @binding(3) var<storage, read_write> params: array<f32>;
@group(0) @binding(4) var<storage, read_write> m: array<f32>;
@group(0) @binding(5) var<storage, read_write> v: array<f32>;
@group(0) @binding(6) var<storage, read> decayMask: array<u32>; // a dummy word unless masked

@compute @workgroup_size(WG)
fn step(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= u.n) { return; }
  // Non-finite global norm: skip the whole update (weights and moments untouched).
  if (coef[2] != 0.0) { return; }
  let g = grads[i] * coef[1];
  let mi = u.beta1 * m[i] + (1.0 - u.beta1) * g;
  let vi = u.beta2 * v[i] + (1.0 - u.beta2) * g * g;
  m[i] = mi;
  v[i] = vi;
  var wd = u.wd;
  if (u.masked != 0u && ((decayMask[i >> 5u] >> (i & 31u)) & 1u) == 0u) { wd = 0.0; }
  let p = params[i] * (1.0 - u.lr * wd);
  params[i] = p - u.stepSize * mi / (sqrt(vi) / u.bc2Sqrt + u.eps);
}

struct F { n: u32, value: f32, pad0: u32, pad1: u32 }
@group(0) @binding(0) var<uniform> fu: F;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;

@compute @workgroup_size(WG)
fn fill(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= fu.n) { return; }
  dst[i] = fu.value;
}
