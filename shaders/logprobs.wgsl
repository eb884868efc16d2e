// Row-wise log-softmax at a temperature: the target token's log-prob, the entropy of the full distribution and the
// logsumexp (kept for the backward). One workgroup per row; each thread streams a strided slice of the vocabulary
// and keeps a (max, sum, weighted-sum) state that the workgroup merges, so it works for any V (152k included).
// (common/row_reduce.wgsl and common/vocab_rows.wgsl are prepended: bindings 0-2, WG, the entry point.)
struct U { T: u32, V: u32, invTemp: f32, _pad: u32 }
@group(0) @binding(3) var<storage, read_write> logp: array<f32>;
@group(0) @binding(4) var<storage, read_write> entropy: array<f32>;
@group(0) @binding(5) var<storage, read_write> lse: array<f32>;

// Row `row` of the logits, starting at element `base`; thread `lid` of the row's workgroup (called by main).
fn vocabRow(row: u32, base: u32, lid: u32) {
  let mt = sliceMax(base, lid, u.invTemp);
  var st = St(mt, 0.0, 0.0);
  for (var v = lid; v < u.V; v += WG) {
    let x = logits[base + v] * u.invTemp - mt;
    let e = exp(x);
    st.s += e;
    st.w += e * x;
  }
  let r = workgroupMerge(lid, st);
  if (lid == 0u) {
    let l = r.m + log(r.s);
    lse[row] = l;
    entropy[row] = log(r.s) - r.w / r.s;
    let t = min(targets[row], u.V - 1u);
    logp[row] = logits[base + t] * u.invTemp - l;
  }
}
