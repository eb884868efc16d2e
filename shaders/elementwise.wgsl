// Elementwise ops over flat f32 arrays: out = op(a, b) with an optional scalar. One entry point per op family.
struct U { n: u32, op: u32, alpha: f32, beta: f32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

override WG: u32 = 256;

// op: 0 add, 1 mul, 2 axpby (alpha*a + beta*b), 3 silu(a), 4 scale (alpha*a), 5 relu(a)*b
fn apply(x: f32, y: f32) -> f32 {
  switch u.op {
    case 0u: { return x + y; }
    case 1u: { return x * y; }
    case 2u: { return u.alpha * x + u.beta * y; }
    case 3u: { return x / (1.0 + exp(-x)); }
    case 4u: { return u.alpha * x; }
    default: { return max(x, 0.0) * y; }
  }
}

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  // 2-D grid so n can exceed 65535 workgroups * WG.
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= u.n) { return; }
  out[i] = apply(a[i], b[i % arrayLength(&b)]);
}
