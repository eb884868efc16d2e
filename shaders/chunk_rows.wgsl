// Helpers for matrices split by rows into several buffers (an embedding / lm_head larger than one storage binding):
// `lookup` gathers embedding rows from the chunk holding rows [lo, lo + rows) of the table and leaves the other
// tokens' rows alone (every chunk runs once, so each token is written by exactly the chunk that holds it); `place`
// and `take` move a column block [c0, c0 + w) between a [R, ld] matrix and a dense [R, w] one (the lm_head's logits
// and their gradient, computed one vocabulary chunk at a time). (common/row_cells.wgsl is prepended.)
struct U { n: u32, D: u32, lo: u32, rows: u32, V: u32, ld: u32, pad: u32, _p: u32 }
@group(0) @binding(0) var<uniform> u: U;

override WG: u32 = 256;

@group(0) @binding(1) var<storage, read> l_table: array<f32>;
@group(0) @binding(2) var<storage, read> l_ids: array<u32>;
@group(0) @binding(3) var<storage, read_write> l_out: array<f32>;

// n tokens, D columns; V is the whole vocabulary: the chunk that ends at V also writes NaN rows for ids >= V, as the
// unchunked lookup does (a loud bug, not a silent one). u.pad is always 0; it keeps the NaN a runtime value.
@compute @workgroup_size(WG)
fn lookup(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let e = cellOf(gid, nwg, u.n, u.D);
  if (!e.ok) { return; }
  let id = l_ids[e.row];
  if (id >= u.V && u.lo + u.rows == u.V) { l_out[e.i] = bitcast<f32>(0x7fc00000u | u.pad); return; }
  if (id < u.lo || id >= u.lo + u.rows) { return; }
  l_out[e.i] = l_table[(id - u.lo) * u.D + e.col];
}

@group(0) @binding(1) var<storage, read> p_src: array<f32>;
@group(0) @binding(2) var<storage, read_write> p_dst: array<f32>;

// place: dst[r, lo + j] = src[r, j] for r < n, j < D (dst has ld columns).
@compute @workgroup_size(WG)
fn place(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let e = cellOf(gid, nwg, u.n, u.D);
  if (!e.ok) { return; }
  p_dst[e.row * u.ld + u.lo + e.col] = p_src[e.i];
}

// take: dst[r, j] = src[r, lo + j] (src has ld columns).
@compute @workgroup_size(WG)
fn take(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let e = cellOf(gid, nwg, u.n, u.D);
  if (!e.ok) { return; }
  p_dst[e.i] = p_src[e.row * u.ld + u.lo + e.col];
}
