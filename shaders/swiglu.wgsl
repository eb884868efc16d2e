// SwiGLU: h = silu(gate) * up; backward writes dgate = dh * up * silu'(gate) and dup = dh * silu(gate).
// Two layouts: separate gate and up buffers [T, F] (forward/backward), or one fused gu [T, 2F] with row t =
// [gate_t (F) | up_t (F)] (forwardFused/backwardFused), which lets the model run one [2F, D] matmul for both.
struct U { n: u32, F: u32, pad1: u32, pad2: u32 }
@group(0) @binding(0) var<uniform> u: U;

override WG: u32 = 256;

// exp argument clamped: exp overflow is not defined to give +inf in WGSL, and sigmoid is saturated long before.
fn sigmoid(g: f32) -> f32 { return 1.0 / (1.0 + exp(clamp(-g, -80.0, 80.0))); }

fn index(gid: vec3<u32>, nwg: vec3<u32>) -> u32 { return gid.x + gid.y * nwg.x * WG; }

@group(0) @binding(1) var<storage, read> f_gate: array<f32>;
@group(0) @binding(2) var<storage, read> f_up: array<f32>;
@group(0) @binding(3) var<storage, read_write> f_h: array<f32>;

@compute @workgroup_size(WG)
fn forward(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(gid, nwg);
  if (i >= u.n) { return; }
  let g = f_gate[i];
  f_h[i] = g * sigmoid(g) * f_up[i];
}

@group(0) @binding(1) var<storage, read> b_dh: array<f32>;
@group(0) @binding(2) var<storage, read> b_gate: array<f32>;
@group(0) @binding(3) var<storage, read> b_up: array<f32>;
@group(0) @binding(4) var<storage, read_write> b_dgate: array<f32>;
@group(0) @binding(5) var<storage, read_write> b_dup: array<f32>;

@compute @workgroup_size(WG)
fn backward(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(gid, nwg);
  if (i >= u.n) { return; }
  let g = b_gate[i];
  let s = sigmoid(g);
  let dh = b_dh[i];
  b_dup[i] = dh * g * s;
  // d silu / dg = s * (1 + g * (1 - s))
  b_dgate[i] = dh * b_up[i] * s * (1.0 + g * (1.0 - s));
}

// ---- fused layout: gu [T, 2F], dgu [T, 2F]; n = T * F ------------------------------------------------------------
@group(0) @binding(1) var<storage, read> ff_gu: array<f32>;
@group(0) @binding(2) var<storage, read_write> ff_h: array<f32>;

@compute @workgroup_size(WG)
fn forwardFused(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(gid, nwg);
  if (i >= u.n) { return; }
  let t = i / u.F;
  let gi = i + t * u.F; // t * 2F + (i - t * F)
  let g = ff_gu[gi];
  ff_h[i] = g * sigmoid(g) * ff_gu[gi + u.F];
}

@group(0) @binding(1) var<storage, read> fb_dh: array<f32>;
@group(0) @binding(2) var<storage, read> fb_gu: array<f32>;
@group(0) @binding(3) var<storage, read_write> fb_dgu: array<f32>;

@compute @workgroup_size(WG)
fn backwardFused(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(gid, nwg);
  if (i >= u.n) { return; }
  let t = i / u.F;
  let gi = i + t * u.F;
  let g = fb_gu[gi];
  let s = sigmoid(g);
  let dh = fb_dh[i];
  fb_dgu[gi + u.F] = dh * g * s;
  fb_dgu[gi] = dh * fb_gu[gi + u.F] * s * (1.0 + g * (1.0 - s));
}
