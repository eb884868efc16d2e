// Masked cross-entropy, per row: loss[t] = mask[t] * (lse_t - logits[t, target_t]), and lse_t for the backward.
// One workgroup per row; each thread reduces a strided slice of the vocabulary to (max, sum), merged in the workgroup.
// (common/row_reduce.wgsl and common/vocab_rows.wgsl are prepended: bindings 0-2, WG, the entry point.)
struct U { T: u32, V: u32, _p0: u32, _p1: u32 }
@group(0) @binding(3) var<storage, read> mask: array<f32>;
@group(0) @binding(4) var<storage, read_write> loss: array<f32>;
@group(0) @binding(5) var<storage, read_write> lse: array<f32>;

// Row `row` of the logits, starting at element `base`; thread `lid` of the row's workgroup (called by main).
fn vocabRow(row: u32, base: u32, lid: u32) {
  let m = sliceMax(base, lid, 1.0);
  var s = 0.0;
  for (var v = lid; v < u.V; v += WG) { s += exp(logits[base + v] - m); }
  let r = workgroupMaxSum(lid, m, s);
  if (lid == 0u) {
    let l = r.x + log(r.y);
    lse[row] = l;
    let w = mask[row];
    // select, not multiply: a masked pad row must not leak a NaN/inf from garbage logits into the sum.
    loss[row] = select(0.0, w * (l - logits[base + min(targets[row], u.V - 1u)]), w != 0.0);
  }
}
