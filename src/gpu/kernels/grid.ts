// Workgroup-count helpers that stay under the 65535-per-dimension limit by folding into a 2-D grid.
const MAX_DIM = 65535;

/** Grid for n items at `perGroup` items per workgroup; shaders index with gid.x + gid.y * nwg.x * WG. */
export function grid1d(n: number, perGroup: number): [number, number] {
  const groups = Math.max(1, Math.ceil(n / perGroup));
  if (groups <= MAX_DIM) return [groups, 1];
  const y = Math.ceil(groups / MAX_DIM);
  return [Math.ceil(groups / y), y];
}
