// GPU re-quantization of fp32 master weights [rows, cols] into the int8/int4 layout of src/model/quant.ts, so the
// rollout weights can be refreshed after every update without a read-back. Two passes: `scales` (one invocation
// per row or 32-column block: max |w| / qmax), then `codes` (one invocation per packed u32 word).
struct U { rows: u32, cols: u32, wordsPerRow: u32, scalesPerRow: u32, wOff: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> w: array<f32>;
@group(0) @binding(2) var<storage, read_write> scales: array<f32>;
@group(0) @binding(3) var<storage, read_write> codes: array<u32>;

override WG: u32 = 64;
// 0 int8 per-row scales, 1 int8 block-32 scales, 2 int4 block-32 scales.
override FORMAT: u32 = 0;

fn qmax() -> f32 {
  if (FORMAT == 2u) { return 7.0; }
  return 127.0;
}

@compute @workgroup_size(WG)
fn scales_main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= u.rows * u.scalesPerRow) { return; }
  let r = i / u.scalesPerRow;
  var lo = 0u;
  var hi = u.cols;
  if (FORMAT != 0u) {
    lo = (i % u.scalesPerRow) * 32u;
    hi = min(u.cols, lo + 32u);
  }
  let base = u.wOff + r * u.cols;
  var amax = 0.0;
  for (var j = lo; j < hi; j++) { amax = max(amax, abs(w[base + j])); }
  scales[i] = amax / qmax();
}

@compute @workgroup_size(WG)
fn codes_main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= u.rows * u.wordsPerRow) { return; }
  let r = i / u.wordsPerRow;
  var per = 4u;
  if (FORMAT == 2u) { per = 8u; }
  let j0 = (i % u.wordsPerRow) * per;
  var si = r;
  if (FORMAT != 0u) { si = r * u.scalesPerRow + j0 / 32u; }
  let s = scales[si];
  let inv = select(0.0, 1.0 / s, s > 0.0);
  let top = qmax();
  var word = 0u;
  for (var t = 0u; t < per; t++) {
    let j = j0 + t;
    var q = 0;
    // floor(x + 0.5) rounds ties up like the CPU's Math.round; padding columns get the zero code.
    if (j < u.cols) { q = i32(clamp(floor(w[u.wOff + r * u.cols + j] * inv + 0.5), -top, top)); }
    if (FORMAT == 2u) {
      word |= u32(q + 8) << (4u * t);
    } else {
      word |= (bitcast<u32>(q) & 0xffu) << (8u * t);
    }
  }
  codes[i] = word;
}
