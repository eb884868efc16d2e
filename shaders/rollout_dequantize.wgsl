// Expands packed rollout weights (src/gpu/quant.ts formats) back to fp32 [rows, cols] at an offset of a flat
// buffer: value = code · scale, exactly the dequantized weight qmatmul multiplies by. On a CPU adapter the fp32
// matmul then beats dequantizing on the fly in every decode step (src/gpu/kernels/quantize.ts).
// One invocation per (row, word): 4 int8 codes or 8 int4 codes; format 0 int8-row, 1 int8-b32, 2 int4-b32.
// (common/row_cells.wgsl is prepended.)
struct U { rows: u32, cols: u32, dstOff: u32, wordsPerRow: u32, scalesPerRow: u32, format: u32, _p0: u32, _p1: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> codes: array<u32>;
@group(0) @binding(2) var<storage, read> scales: array<f32>;
@group(0) @binding(3) var<storage, read_write> dst: array<f32>;

override WG: u32 = 64;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let c = cellOf(gid, nwg, u.rows, u.wordsPerRow);
  if (!c.ok) { return; }
  let r = c.row;
  let word = codes[c.i];
  let int4 = u.format == 2u;
  let per = select(4u, 8u, int4);
  let col0 = c.col * per;
  let s = scales[r * u.scalesPerRow + select(col0 / 32u, 0u, u.format == 0u)];
  for (var j = 0u; j < per; j++) {
    let col = col0 + j;
    if (col >= u.cols) { break; }
    var q: f32;
    if (int4) {
      q = f32((word >> (4u * j)) & 15u) - 8.0;
    } else {
      // Arithmetic right shift of the left-aligned byte sign-extends it.
      q = f32(bitcast<i32>(word << (24u - 8u * j)) >> 24u);
    }
    dst[u.dstOff + r * u.cols + col] = q * s;
  }
}
