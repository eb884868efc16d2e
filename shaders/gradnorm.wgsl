// Global gradient norm over a flat f32 buffer of any length, in two passes with no readback and no workgroup
// barriers (SwiftShader runs barrier-heavy reductions ~40x slower than plain loops): P threads each sum the
// squares of a grid-stride slice (coalesced on GPUs), then one thread adds the P partials in a fixed order and
// writes out = [norm, clip coefficient, non-finite flag, sum of squares]. Deterministic for a given n.
struct U { n: u32, partials: u32, maxNorm: f32, pad: u32 }
@group(0) @binding(0) var<uniform> u: U;

override WG: u32 = 64;

@group(0) @binding(1) var<storage, read> p_g: array<f32>;
@group(0) @binding(2) var<storage, read_write> p_partial: array<f32>;

@compute @workgroup_size(WG)
fn partial(@builtin(global_invocation_id) gid: vec3<u32>) {
  let k = gid.x;
  if (k >= u.partials) { return; }
  var acc = 0.0;
  for (var i = k; i < u.n; i += u.partials) { let g = p_g[i]; acc += g * g; }
  p_partial[k] = acc;
}

@group(0) @binding(1) var<storage, read> f_partial: array<f32>;
@group(0) @binding(2) var<storage, read_write> f_out: array<f32>;

// Tested on the bit pattern: WGSL lets implementations assume floats are finite, so x != x may be folded away.
fn isFinite(x: f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u; }

@compute @workgroup_size(1)
fn finish() {
  var sumsq = 0.0;
  for (var i = 0u; i < u.partials; i++) { sumsq += f_partial[i]; }
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
