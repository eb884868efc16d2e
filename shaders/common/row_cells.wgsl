// Element-wise indexing of a [rows, D] matrix (embedding.wgsl, rows_scatter.wgsl; prepended by their launchers):
// the launcher's grid (src/gpu/kernels/grid.ts) is 1-D workgroups of WG in a 2-D grid, x fastest, one invocation per
// element. The kernel's struct U has the row width D.

// Element i = row · D + col of this invocation; ok is false past the end.
struct Cell { ok: bool, i: u32, row: u32, col: u32 }

fn cellOf(gid: vec3<u32>, nwg: vec3<u32>, rows: u32) -> Cell {
  let i = gid.x + gid.y * nwg.x * WG;
  let row = i / u.D;
  return Cell(i < rows * u.D, i, row, i - row * u.D);
}
