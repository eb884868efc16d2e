// Row scatter: dst[rows[i], :] = src[i, :] for i < n (rows distinct; the other rows of dst are left as they are).
// The inverse of the embedding gather, for the loss head run on the loss rows only (src/model/head-rows.ts).
// (common/row_cells.wgsl is prepended.)
struct U { n: u32, D: u32, _p0: u32, _p1: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> src: array<f32>;
@group(0) @binding(2) var<storage, read> rows: array<u32>;
@group(0) @binding(3) var<storage, read_write> dst: array<f32>;

override WG: u32 = 256;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let e = cellOf(gid, nwg, u.n, u.D);
  if (!e.ok) { return; }
  dst[rows[e.row] * u.D + e.col] = src[e.i];
}
