// Element-wise indexing of a [rows, width] grid of cells (embedding, rows_scatter, chunk_rows, convert_f16,
// rollout_dequantize; prepended by their launchers): the launcher's grid (src/gpu/kernels/grid.ts) is 1-D workgroups
// of WG in a 2-D grid, x fastest, one invocation per cell. The kernel declares `override WG`.

// Cell i = row · width + col of this invocation; ok is false past the end.
struct Cell { ok: bool, i: u32, row: u32, col: u32 }

fn cellOf(gid: vec3<u32>, nwg: vec3<u32>, rows: u32, width: u32) -> Cell {
  let i = gid.x + gid.y * nwg.x * WG;
  let row = i / width;
  return Cell(i < rows * width, i, row, i - row * width);
}
