// f32 [rows, cols] at an element offset of a flat buffer → f16 rows padded with zero halves to a multiple of 4, the
// layout shaders/linear_f16.wgsl reads. One invocation per 4 halves, written as a u32 pair (the bytes of a
// vec4<f16>). pack2x16float is core WGSL, so this runs on every adapter. (common/row_cells.wgsl is prepended.)
struct U { rows: u32, cols: u32, rowVec4: u32, srcOff: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> src: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<vec2<u32>>;

override WG: u32 = 256;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let c = cellOf(gid, nwg, u.rows, u.rowVec4);
  if (!c.ok) { return; }
  let k = c.col * 4u;
  let base = u.srcOff + c.row * u.cols;
  var v = vec4<f32>(0.0);
  for (var j = 0u; j < 4u; j++) {
    if (k + j < u.cols) { v[j] = src[base + k + j]; }
  }
  dst[c.i] = vec2<u32>(pack2x16float(v.xy), pack2x16float(v.zw));
}
