// Uniforms, output and transpose flags of the fp32 matmuls (matmul.wgsl, matmul_general.wgsl, matmul_tiled.wgsl,
// matmul_naive.wgsl, linear_quad.wgsl), appended by their launchers; each kernel declares its inputs a and b
// (scalar or vec4 rows) at bindings 1 and 2. C[M,N] = alpha * op(A)·op(B) + beta * C, op = optional transpose
// (constant per pipeline); A, B and C are row-major at element offsets aOff, bOff, cOff.
struct U { M: u32, N: u32, K: u32, alpha: f32, beta: f32, aOff: u32, bOff: u32, cOff: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

override TRANS_A: bool = false;
override TRANS_B: bool = false;
