// RMSNorm over rows of x [T, D]: y = x * rstd * w with rstd = 1/sqrt(mean(x^2) + eps), rstd saved per row.
// Backward: dx per row (one workgroup per row), dw += sum over rows, in two passes (per-chunk partial sums, then a
// fixed-order reduction) so large T keeps many threads busy and the result is deterministic.
// (common/row_reduce.wgsl is prepended.)
struct U { T: u32, D: u32, eps: f32, chunk: u32 }
@group(0) @binding(0) var<uniform> u: U;

override WG: u32 = 128; // power of two

// ---- forward -------------------------------------------------------------------------------------------------
@group(0) @binding(1) var<storage, read> f_x: array<f32>;
@group(0) @binding(2) var<storage, read> f_w: array<f32>;
@group(0) @binding(3) var<storage, read_write> f_y: array<f32>;
@group(0) @binding(4) var<storage, read_write> f_rstd: array<f32>;

@compute @workgroup_size(WG)
fn forward(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
           @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = rowOf(wid, nwg);
  if (row >= u.T) { return; } // uniform per workgroup, so barriers stay uniform
  let base = row * u.D;
  var ss = 0.0;
  for (var d = lid.x; d < u.D; d += WG) { let v = f_x[base + d]; ss += v * v; }
  let r = inverseSqrt(workgroupSum(lid.x, ss) / f32(u.D) + u.eps);
  for (var d = lid.x; d < u.D; d += WG) { f_y[base + d] = f_x[base + d] * r * f_w[d]; }
  if (lid.x == 0u) { f_rstd[row] = r; }
}

// One thread per row: no workgroup memory or barriers, which SwiftShader (CPU) runs far faster than the
// workgroup-per-row form above; on real GPUs the workgroup form wins for short T.
@compute @workgroup_size(WG)
fn forwardRows(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = gid.x + gid.y * nwg.x * WG;
  if (row >= u.T) { return; }
  let base = row * u.D;
  var ss = 0.0;
  for (var d = 0u; d < u.D; d++) { let v = f_x[base + d]; ss += v * v; }
  let r = inverseSqrt(ss / f32(u.D) + u.eps);
  for (var d = 0u; d < u.D; d++) { f_y[base + d] = f_x[base + d] * r * f_w[d]; }
  f_rstd[row] = r;
}

// ---- backward dx: dx = r * (w*dy - x * r^2 * mean(w*dy*x)) ---------------------------------------------------------
@group(0) @binding(1) var<storage, read> b_dy: array<f32>;
@group(0) @binding(2) var<storage, read> b_x: array<f32>;
@group(0) @binding(3) var<storage, read> b_w: array<f32>;
@group(0) @binding(4) var<storage, read> b_rstd: array<f32>;
@group(0) @binding(5) var<storage, read_write> b_dx: array<f32>;

@compute @workgroup_size(WG)
fn backwardInput(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
                 @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = rowOf(wid, nwg);
  if (row >= u.T) { return; }
  let base = row * u.D;
  var dot = 0.0;
  for (var d = lid.x; d < u.D; d += WG) { dot += b_dy[base + d] * b_w[d] * b_x[base + d]; }
  let r = b_rstd[row];
  let c = workgroupSum(lid.x, dot) / f32(u.D) * r * r;
  for (var d = lid.x; d < u.D; d += WG) {
    b_dx[base + d] = r * (b_w[d] * b_dy[base + d] - b_x[base + d] * c);
  }
}

@compute @workgroup_size(WG)
fn backwardInputRows(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = gid.x + gid.y * nwg.x * WG;
  if (row >= u.T) { return; }
  let base = row * u.D;
  var dot = 0.0;
  for (var d = 0u; d < u.D; d++) { dot += b_dy[base + d] * b_w[d] * b_x[base + d]; }
  let r = b_rstd[row];
  let c = dot / f32(u.D) * r * r;
  for (var d = 0u; d < u.D; d++) { b_dx[base + d] = r * (b_w[d] * b_dy[base + d] - b_x[base + d] * c); }
}

// ---- backward dw, pass 1: partial[c, d] = sum over rows of chunk c of dy * x * rstd ------------------------------
@group(0) @binding(1) var<storage, read> p_dy: array<f32>;
@group(0) @binding(2) var<storage, read> p_x: array<f32>;
@group(0) @binding(3) var<storage, read> p_rstd: array<f32>;
@group(0) @binding(4) var<storage, read_write> p_partial: array<f32>;

@compute @workgroup_size(WG)
fn weightPartial(@builtin(global_invocation_id) gid: vec3<u32>) {
  let d = gid.x;
  let c = gid.y;
  if (d >= u.D) { return; }
  let start = c * u.chunk;
  let end = min(start + u.chunk, u.T);
  var acc = 0.0;
  for (var t = start; t < end; t++) { acc += p_dy[t * u.D + d] * p_x[t * u.D + d] * p_rstd[t]; }
  p_partial[c * u.D + d] = acc;
}

// ---- backward dw, pass 2: dw[d] += sum over chunks (fixed order) ---------------------------------------------------
@group(0) @binding(1) var<storage, read> r_partial: array<f32>;
@group(0) @binding(2) var<storage, read_write> r_dw: array<f32>;

@compute @workgroup_size(WG)
fn weightReduce(@builtin(global_invocation_id) gid: vec3<u32>) {
  let d = gid.x;
  if (d >= u.D) { return; }
  let chunks = (u.T + u.chunk - 1u) / u.chunk;
  var acc = 0.0;
  for (var c = 0u; c < chunks; c++) { acc += r_partial[c * u.D + d]; }
  r_dw[d] += acc;
}
