// Register-tile helpers of the fp32 matmuls (matmul.wgsl, matmul_general.wgsl, linear_quad.wgsl), appended by their
// launchers (after the shader, so an `enable` directive stays first; WGSL resolves module-scope names in any order).
// `u` and the output `c` come from common/matmul_io.wgsl.

// C[i] = alpha·v (+ beta·C[i]); beta = 0 never reads C, so an uninitialised C cannot leak a NaN.
fn put(i: u32, v: f32) {
  if (u.beta == 0.0) { c[i] = u.alpha * v; } else { c[i] = u.alpha * v + u.beta * c[i]; }
}

// Four consecutive columns of one row, guarded at the matrix edge.
fn store(row: u32, col0: u32, v: vec4<f32>) {
  if (row >= u.M || col0 >= u.N) { return; }
  let i = u.cOff + row * u.N + col0;
  put(i, v.x);
  if (col0 + 1u < u.N) { put(i + 1u, v.y); }
  if (col0 + 2u < u.N) { put(i + 2u, v.z); }
  if (col0 + 3u < u.N) { put(i + 3u, v.w); }
}

// acc += a_row(k..k+3) · B(k..k+3, cols): B given as four vec4 rows.
fn fmaRow(acc: vec4<f32>, av: vec4<f32>, b0: vec4<f32>, b1: vec4<f32>, b2: vec4<f32>, b3: vec4<f32>) -> vec4<f32> {
  return acc + av.x * b0 + av.y * b1 + av.z * b2 + av.w * b3;
}

// acc += dots of a_row(k..k+3) with four rows of Bᵀ.
fn dotRow(acc: vec4<f32>, av: vec4<f32>, b0: vec4<f32>, b1: vec4<f32>, b2: vec4<f32>, b3: vec4<f32>) -> vec4<f32> {
  return acc + vec4<f32>(dot(av, b0), dot(av, b1), dot(av, b2), dot(av, b3));
}
