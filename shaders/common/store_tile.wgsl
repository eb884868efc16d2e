// Stores an invocation's register tile of `rows` rows (1, 2, 4 or 8) by 4 or 8 (`wide`) columns: a<r> holds row r's
// columns 0..3, h<r> its columns 4..7. Appended by the launchers of matmul.wgsl, linear_quad.wgsl (with
// common/matmul_tile.wgsl), qmatmul.wgsl and qmatmul_t.wgsl; each shader supplies `store(row, col0, v)`. rows and
// wide are pipeline constants at every call, so the unused stores compile away as the inline ones did.
fn storeTile(row0: u32, col0: u32, rows: u32, wide: bool,
             a0: vec4<f32>, a1: vec4<f32>, a2: vec4<f32>, a3: vec4<f32>,
             a4: vec4<f32>, a5: vec4<f32>, a6: vec4<f32>, a7: vec4<f32>,
             h0: vec4<f32>, h1: vec4<f32>, h2: vec4<f32>, h3: vec4<f32>,
             h4: vec4<f32>, h5: vec4<f32>, h6: vec4<f32>, h7: vec4<f32>) {
  store(row0, col0, a0);
  if (wide) { store(row0, col0 + 4u, h0); }
  if (rows > 1u) {
    store(row0 + 1u, col0, a1);
    if (wide) { store(row0 + 1u, col0 + 4u, h1); }
  }
  if (rows > 2u) {
    store(row0 + 2u, col0, a2);
    if (wide) { store(row0 + 2u, col0 + 4u, h2); }
    store(row0 + 3u, col0, a3);
    if (wide) { store(row0 + 3u, col0 + 4u, h3); }
  }
  if (rows > 4u) {
    store(row0 + 4u, col0, a4);
    if (wide) { store(row0 + 4u, col0 + 4u, h4); }
    store(row0 + 5u, col0, a5);
    if (wide) { store(row0 + 5u, col0 + 4u, h5); }
    store(row0 + 6u, col0, a6);
    if (wide) { store(row0 + 6u, col0 + 4u, h6); }
    store(row0 + 7u, col0, a7);
    if (wide) { store(row0 + 7u, col0 + 4u, h7); }
  }
}
