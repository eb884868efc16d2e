// Inputs of the per-row vocabulary kernels (logprobs, xent and their backwards), prepended after row_reduce.wgsl:
// binding 0 is the shader's own `struct U` (T and V first), logits [T, V] and targets [T] are bindings 1 and 2, and
// each workgroup of WG threads (a power of two) owns one row, every thread a strided slice of it: the entry point
// below hands the row to the shader's `fn vocabRow(row, base, lid)`.
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read> targets: array<u32>;

override WG: u32 = 256;

// The largest logit · scale of this thread's slice of the row at `base` (NEG_BIG for an empty slice): the first of
// two sweeps (max, then sums) instead of one branchy online update, since divergent branches run both sides on SIMD
// lanes and the slice is still in cache for the second sweep.
fn sliceMax(base: u32, lid: u32, scale: f32) -> f32 {
  var m = NEG_BIG;
  for (var v = lid; v < u.V; v += WG) { m = max(m, logits[base + v] * scale); }
  return m;
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let row = rowOf(wid, nwg);
  if (row >= u.T) { return; } // uniform per workgroup, so vocabRow's barriers stay in uniform control flow
  vocabRow(row, row * u.V, lid);
}
