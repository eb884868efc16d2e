// Global gradient norm over a flat f32 buffer of any length, in two passes with no readback: per-workgroup partial
// sums of squares (grid-stride, at most MAX_PARTIALS workgroups), then one workgroup reduces them in a fixed order
// and writes out = [norm, clip coefficient, non-finite flag, sum of squares].
struct U { n: u32, partials: u32, maxNorm: f32, pad: u32 }
@group(0) @binding(0) var<uniform> u: U;

const WG: u32 = 256u;
var<workgroup> red: array<f32, 256>;

fn reduceSum(lid: u32, v: f32) -> f32 {
  red[lid] = v;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s / 2u) {
    if (lid < s) { red[lid] += red[lid + s]; }
    workgroupBarrier();
  }
  return red[0];
}

@group(0) @binding(1) var<storage, read> p_g: array<f32>;
@group(0) @binding(2) var<storage, read_write> p_partial: array<f32>;

@compute @workgroup_size(256)
fn partial(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  var acc = 0.0;
  let stride = u.partials * WG;
  for (var i = wid.x * WG + lid.x; i < u.n; i += stride) { let g = p_g[i]; acc += g * g; }
  let total = reduceSum(lid.x, acc);
  if (lid.x == 0u) { p_partial[wid.x] = total; }
}

@group(0) @binding(1) var<storage, read> f_partial: array<f32>;
@group(0) @binding(2) var<storage, read_write> f_out: array<f32>;

// Tested on the bit pattern: WGSL lets implementations assume floats are finite, so x != x may be folded away.
fn isFinite(x: f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u; }

@compute @workgroup_size(256)
fn finish(@builtin(local_invocation_id) lid: vec3<u32>) {
  var acc = 0.0;
  for (var i = lid.x; i < u.partials; i += WG) { acc += f_partial[i]; }
  let sumsq = reduceSum(lid.x, acc);
  if (lid.x == 0u) {
    let norm = sqrt(sumsq);
    var clip = 1.0;
    if (u.maxNorm > 0.0) { clip = min(1.0, u.maxNorm / (norm + 1e-6)); }
    var flag = 0.0;
    if (!isFinite(sumsq)) { flag = 1.0; clip = 0.0; }
    f_out[0] = norm;
    f_out[1] = clip;
    f_out[2] = flag;
    f_out[3] = sumsq;
  }
}
