// Re-quantizes fp32 weights [rows, cols] (read at an offset inside the flat parameter buffer) into the packed
// formats of src/gpu/quant.ts, on the GPU, so refreshing the rollout copy after an update needs no readback.
// One thread per (row, 32-column block) writes that block's code words and scale. format: 0 int8-row (the scale
// spans the whole row: each block's thread recomputes the row max), 1 int8-b32, 2 int4-b32. Rounding is
// floor(x + 0.5), as JS Math.round in the CPU quantizer; zero codes fill the padding past `cols`.
struct U { rows: u32, cols: u32, srcOff: u32, wordsPerRow: u32, scalesPerRow: u32, format: u32, _p0: u32, _p1: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> src: array<f32>;
@group(0) @binding(2) var<storage, read_write> codes: array<u32>;
@group(0) @binding(3) var<storage, read_write> scales: array<f32>;

override WG: u32 = 64;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.x + gid.y * nwg.x * WG;
  let bpr = (u.cols + 31u) / 32u;
  if (i >= u.rows * bpr) { return; }
  let r = i / bpr;
  let blk = i % bpr;
  let rowBase = u.srcOff + r * u.cols;
  let perRow = u.format == 0u;
  let lo = select(blk * 32u, 0u, perRow);
  let hi = select(min(u.cols, blk * 32u + 32u), u.cols, perRow);
  var amax = 0.0;
  for (var j = lo; j < hi; j++) { amax = max(amax, abs(src[rowBase + j])); }
  let int4 = u.format == 2u;
  let top = select(127.0, 7.0, int4);
  let scale = amax / top;
  let inv = select(0.0, 1.0 / scale, scale > 0.0);
  if (!perRow || blk == 0u) { scales[r * u.scalesPerRow + select(blk, 0u, perRow)] = scale; }
  let perWord = select(4u, 8u, int4);
  let bits = select(8u, 4u, int4);
  let words = 32u / perWord;
  for (var w = 0u; w < words; w++) {
    var word = 0u;
    for (var c = 0u; c < perWord; c++) {
      let j = blk * 32u + w * perWord + c;
      var q = 0.0;
      if (j < u.cols) { q = clamp(floor(src[rowBase + j] * inv + 0.5), -top, top); }
      let code = select(u32(i32(q)) & 0xffu, u32(i32(q) + 8), int4);
      word |= code << (c * bits);
    }
    codes[r * u.wordsPerRow + blk * words + w] = word;
  }
}
