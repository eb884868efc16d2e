// Embedding: forward gathers rows of table [V, D] by u32 ids [T]; backward scatter-adds dOut [T, D] into
// dTable [V, D] without float atomics: a link pass finds, per token, the next token with the same id and
// whether it is the first occurrence; the accumulate pass walks each chain from its head, so every vocab row is
// written by exactly one thread per column, in token order (deterministic, correct with repeated ids).
// (common/row_cells.wgsl is prepended.)
struct U { T: u32, D: u32, V: u32, pad: u32 }
@group(0) @binding(0) var<uniform> u: U;

override WG: u32 = 256;

// ---- forward: out[t, d] = table[ids[t], d] -------------------------------------------------------------------
@group(0) @binding(1) var<storage, read> f_table: array<f32>;
@group(0) @binding(2) var<storage, read> f_ids: array<u32>;
@group(0) @binding(3) var<storage, read_write> f_out: array<f32>;

@compute @workgroup_size(WG)
fn forward(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let e = cellOf(gid, nwg, u.T, u.D);
  if (!e.ok) { return; }
  let id = f_ids[e.row];
  // An out-of-range id gives NaN rather than reading another row, so the bug is loud.
  // (u.pad is always 0; it keeps the NaN a runtime value, which WGSL constant folding would reject.)
  if (id >= u.V) { f_out[e.i] = bitcast<f32>(0x7fc00000u | u.pad); return; }
  f_out[e.i] = f_table[id * u.D + e.col];
}

// ---- backward pass 1: link[t] = next token with the same id (or NONE); head[t] = 1 if first occurrence -------
// Each thread scans all ids from global memory (cached): O(T^2) compares in total, but no workgroup barriers,
// which SwiftShader runs very slowly; on a GPU this is a few microseconds for the T of a training batch.
@group(0) @binding(1) var<storage, read> l_ids: array<u32>;
@group(0) @binding(2) var<storage, read_write> l_link: array<u32>; // [2T]: next at [t], head flag at [T + t]

const NONE: u32 = 0xffffffffu;

@compute @workgroup_size(WG)
fn link(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let t = gid.x + gid.y * nwg.x * WG;
  if (t >= u.T) { return; }
  let id = l_ids[t];
  var head = 1u;
  for (var s = 0u; s < t; s++) { if (l_ids[s] == id) { head = 0u; break; } }
  var next = NONE;
  for (var s = t + 1u; s < u.T; s++) { if (l_ids[s] == id) { next = s; break; } }
  l_link[t] = next;
  l_link[u.T + t] = head;
}

// ---- backward pass 2: dTable[ids[t], d] += sum over the chain starting at head token t --------------------------
@group(0) @binding(1) var<storage, read> a_dout: array<f32>;
@group(0) @binding(2) var<storage, read> a_ids: array<u32>;
@group(0) @binding(3) var<storage, read> a_link: array<u32>;
@group(0) @binding(4) var<storage, read_write> a_dtable: array<f32>;

@compute @workgroup_size(WG)
fn accumulate(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let e = cellOf(gid, nwg, u.T, u.D);
  if (!e.ok) { return; }
  let t = e.row;
  let d = e.col;
  if (a_link[u.T + t] == 0u) { return; }
  let id = a_ids[t];
  if (id >= u.V) { return; }
  var acc = 0.0;
  var s = t;
  // Bounded by T so a corrupt link can never hang the device.
  for (var k = 0u; k < u.T; k++) {
    acc += a_dout[s * u.D + d];
    s = a_link[s];
    if (s >= u.T) { break; }
  }
  a_dtable[id * u.D + d] += acc;
}
