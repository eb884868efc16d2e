// Backward of logprobs.wgsl: dlogits = (dlogp * (onehot - p) + dentropy * (-p * (log p + H))) / temperature.
// One workgroup per row, threads strided over the vocabulary; lse and entropy come from the forward.
// (common/row_reduce.wgsl and common/vocab_rows.wgsl are prepended: bindings 0-2, WG, the entry point.)
struct U { T: u32, V: u32, invTemp: f32, hasDent: u32 }
@group(0) @binding(3) var<storage, read> lse: array<f32>;
@group(0) @binding(4) var<storage, read> entropy: array<f32>;
@group(0) @binding(5) var<storage, read> dlogp: array<f32>;
@group(0) @binding(6) var<storage, read> dentropy: array<f32>; // a dummy when hasDent == 0
@group(0) @binding(7) var<storage, read_write> dlogits: array<f32>;

// Row `row` of the logits, starting at element `base`; thread `lid` of the row's workgroup (called by main).
fn vocabRow(row: u32, base: u32, lid: u32) {
  let l = lse[row];
  let g = dlogp[row];
  var gh = 0.0;
  if (u.hasDent != 0u) { gh = dentropy[row]; }
  let h = entropy[row];
  let t = targets[row];
  for (var v = lid; v < u.V; v += WG) {
    let logP = logits[base + v] * u.invTemp - l;
    let p = exp(logP);
    var d = -g * p - gh * p * (logP + h);
    if (v == t) { d += g; }
    dlogits[base + v] = d * u.invTemp;
  }
}
