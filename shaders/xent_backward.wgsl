// Cross-entropy gradient: dlogits[t, v] = gradScale * mask[t] * (softmax_v - 1[v = target]) / max(1, Σ mask),
// with Σ mask read from the forward's stats[1] so no readback is needed. One workgroup per row.
// (common/row_reduce.wgsl and common/vocab_rows.wgsl are prepended: bindings 0-2, WG, the entry point.)
struct U { T: u32, V: u32, gradScale: f32, _p0: u32 }
@group(0) @binding(3) var<storage, read> mask: array<f32>;
@group(0) @binding(4) var<storage, read> lse: array<f32>;
@group(0) @binding(5) var<storage, read> stats: array<f32>;
@group(0) @binding(6) var<storage, read_write> dlogits: array<f32>;

// Row `row` of the logits, starting at element `base`; thread `lid` of the row's workgroup (called by main).
fn vocabRow(row: u32, base: u32, lid: u32) {
  let w = mask[row] * u.gradScale / max(1.0, stats[1]);
  let l = lse[row];
  let t = targets[row];
  for (var v = lid; v < u.V; v += WG) {
    var d = 0.0;
    if (w != 0.0) {
      d = exp(logits[base + v] - l);
      if (v == t) { d -= 1.0; }
      d *= w;
    }
    dlogits[base + v] = d;
  }
}
