// Naive fp32 matmul, one output per invocation: the benchmark baseline and a shape-agnostic reference path.
// C[M,N] = alpha * op(A)·op(B) + beta * C, op = optional transpose; operands are row-major at element offsets.
// (common/matmul_io.wgsl (uniforms, output C, transposes) is appended.)
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;

override WG_X: u32 = 16;
override WG_Y: u32 = 16;

@compute @workgroup_size(WG_X, WG_Y)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let col = gid.x;
  let row = gid.y;
  if (row >= u.M || col >= u.N) { return; }
  var acc = 0.0;
  for (var k = 0u; k < u.K; k++) {
    var av: f32;
    var bv: f32;
    if (TRANS_A) { av = a[u.aOff + k * u.M + row]; } else { av = a[u.aOff + row * u.K + k]; }
    if (TRANS_B) { bv = b[u.bOff + col * u.K + k]; } else { bv = b[u.bOff + k * u.N + col]; }
    acc += av * bv;
  }
  let i = u.cOff + row * u.N + col;
  // beta == 0 must not read C: it may hold garbage (NaN * 0 = NaN).
  if (u.beta == 0.0) { c[i] = u.alpha * acc; } else { c[i] = u.alpha * acc + u.beta * c[i]; }
}
