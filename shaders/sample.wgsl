// Token sampling from logits [B, V], one workgroup per row: temperature, top-k, top-p, then a Gumbel-max draw whose
// noise is a counter-based hash of (seed, sequence id, step, token), so a row's draw depends on nothing else in the
// batch. Writes the token id, its log-prob under the processed (tempered, truncated, renormalised) distribution,
// and the next-step input; rows already done emit the pad id, and a sampled stop id marks the row done.
struct U {
  B: u32,
  V: u32,
  invT: f32,        // 1 / temperature (computed on the host so the CPU reference scales identically); 0: greedy
  topK: u32,        // 0 or >= V: off
  topP: f32,        // >= 1: off
  seed: u32,
  step: u32,        // generation step of every row in this call (rows start generating together)
  col: u32,         // step slot of `out` to write
  _cap: u32,
  stop0: u32,       // stop ids (0xffffffff = none)
  stop1: u32,
  padId: u32,
}
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read> seqIds: array<u32>;
@group(0) @binding(3) var<storage, read_write> done: array<u32>;
// [cap, 2, B]: slot c holds B token ids then B log-prob bit patterns, so a run of steps is one contiguous readback.
@group(0) @binding(4) var<storage, read_write> out: array<u32>;
@group(0) @binding(5) var<storage, read_write> nextTok: array<u32>;

// WG >= 16 (16 digit bins are summed by 16 threads). Small on purpose: reductions below cost two barriers each, and
// on CPU-emulated GPUs every barrier costs a switch per invocation.
override WG: u32 = 64;

var<workgroup> red: array<f32, WG>;
var<workgroup> redI: array<u32, WG>;
var<workgroup> part: array<f32, WG * 16u>;
var<workgroup> tot: array<f32, 16>;

const NEG_BIG: f32 = -3.0e38;

// Order-preserving map from f32 to u32: a < b  <=>  key(a) < key(b) (for non-NaN values).
fn key(x: f32) -> u32 {
  let b = bitcast<u32>(x);
  return select(b | 0x80000000u, ~b, (b & 0x80000000u) != 0u);
}

// Chris Wellons' lowbias32: a bijective 32-bit mixer with low bias.
fn mix32(x0: u32) -> u32 {
  var x = x0;
  x ^= x >> 16u;
  x *= 0x7feb352du;
  x ^= x >> 15u;
  x *= 0x846ca68bu;
  x ^= x >> 16u;
  return x;
}

// Every thread sums the WG partials itself in the same order, so all hold the identical value after two barriers
// (a tree would need log2(WG) of them).
fn allSum(lid: u32, v: f32) -> f32 {
  red[lid] = v;
  workgroupBarrier();
  var s = 0.0;
  for (var j = 0u; j < WG; j++) { s += red[j]; }
  workgroupBarrier();
  return s;
}

fn allMax(lid: u32, v: f32) -> f32 {
  red[lid] = v;
  workgroupBarrier();
  var s = NEG_BIG;
  for (var j = 0u; j < WG; j++) { s = max(s, red[j]); }
  workgroupBarrier();
  return s;
}

// Argmax over (value, index) pairs; ties go to the lower index so the result does not depend on WG.
fn allArgmax(lid: u32, v: f32, i: u32) -> u32 {
  red[lid] = v;
  redI[lid] = i;
  workgroupBarrier();
  var b = NEG_BIG;
  var bi = 0xffffffffu;
  for (var j = 0u; j < WG; j++) {
    let x = red[j];
    if (x > b || (x == b && redI[j] < bi)) {
      b = x;
      bi = redI[j];
    }
  }
  workgroupBarrier();
  return bi;
}

// Sums 16 bins over the workgroup: threads 0..15 each total one bin. The next call's first barrier orders the
// reads of `tot` here before its rewrite, so two barriers suffice.
fn histSum(lid: u32, bins: array<f32, 16>) -> array<f32, 16> {
  for (var d = 0u; d < 16u; d++) { part[d * WG + lid] = bins[d]; }
  workgroupBarrier();
  if (lid < 16u) {
    var s = 0.0;
    for (var j = 0u; j < WG; j++) { s += part[lid * WG + j]; }
    tot[lid] = s;
  }
  workgroupBarrier();
  return tot;
}

// Radix search, 4 bits per level: the largest key t with W(t) >= goal, where W(t) sums w_i over the tokens with
// key_i >= t and key_i >= floorKey; w_i = 1 (count, for top-k) or exp(s_i - m) (mass, for top-p, where the goal is
// the fraction `goalIn` of the total kept mass). W is monotone, so choosing the largest admissible digit at each
// level finds the threshold in 8 passes instead of 32 binary-search passes.
fn search(lid: u32, base: u32, invT: f32, m: f32, floorKey: u32, mass: bool, goalIn: f32) -> u32 {
  var prefix = 0u;
  var above = 0.0; // weight of tokens whose high digits exceed the prefix
  var goal = goalIn;
  for (var level = 0u; level < 8u; level++) {
    let shift = 28u - 4u * level;
    let hiShift = min(shift + 4u, 31u);
    // Zeroed explicitly: Dawn/SwiftShader was seen to keep a loop-local array's values across iterations.
    var bins: array<f32, 16>;
    for (var d = 0u; d < 16u; d++) { bins[d] = 0.0; }
    for (var i = lid; i < u.V; i += WG) {
      let s = logits[base + i] * invT;
      let k = key(s);
      let sameHigh = level == 0u || ((k ^ prefix) >> hiShift) == 0u;
      if (k >= floorKey && sameHigh) {
        bins[(k >> shift) & 15u] += select(1.0, exp(s - m), mass);
      }
    }
    let t = histSum(lid, bins);
    if (level == 0u && mass) {
      var total = 0.0;
      for (var d = 0u; d < 16u; d++) { total += t[d]; }
      goal = goalIn * total;
    }
    // Largest digit d with above + sum_{d' >= d} t[d'] >= goal. If rounding leaves none (the bucket chosen one
    // level up summed a hair larger then), digit 0 keeps that whole bucket, which is what that level asked for.
    var acc = above;
    var chosen = 0u;
    var found = false;
    var newAbove = 0.0;
    for (var j = 0u; j < 16u; j++) {
      let d = 15u - j;
      let before = acc;
      acc += t[d];
      if (!found && (acc >= goal || d == 0u)) {
        found = true;
        chosen = d;
        newAbove = before;
      }
    }
    above = newAbove;
    prefix |= chosen << shift;
  }
  return prefix;
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lidv: vec3<u32>) {
  let row = wid.x;
  let lid = lidv.x;
  let base = row * u.V;
  // Greedy: argmax of the raw logits; its log-prob comes from the untempered, untruncated softmax.
  let greedy = u.invT <= 0.0;
  let invT = select(u.invT, 1.0, greedy);

  var lm = NEG_BIG;
  for (var i = lid; i < u.V; i += WG) { lm = max(lm, logits[base + i] * invT); }
  let m = allMax(lid, lm);

  // Top-k: the k-th largest key (ties with it are kept, as in HF's TopKLogitsWarper).
  var thr = 0u;
  if (!greedy && u.topK > 0u && u.topK < u.V) {
    thr = search(lid, base, invT, m, 0u, false, f32(u.topK));
  }
  // Top-p on the top-k survivors, renormalised: the largest threshold whose mass is >= p of theirs.
  if (!greedy && u.topP < 1.0) {
    thr = search(lid, base, invT, m, thr, true, u.topP);
  }

  // Gumbel-max over the kept tokens: argmax(s_i + g_i), g_i = -log(-log(u_i)), samples softmax(s) on the kept set.
  let rowKey = mix32(u.step ^ mix32(seqIds[row] ^ mix32(u.seed)));
  let seedKey = mix32(u.seed + 0x9e3779b9u);
  var z = 0.0;
  var best = NEG_BIG;
  var bestI = 0xffffffffu;
  for (var i = lid; i < u.V; i += WG) {
    let s = logits[base + i] * invT;
    if (key(s) >= thr) {
      z += exp(s - m);
      var score = s;
      if (!greedy) {
        let h = mix32(mix32(i ^ rowKey) ^ seedKey);
        let r = (f32(h >> 8u) + 0.5) * (1.0 / 16777216.0);
        score = s - log(-log(r));
      }
      if (score > best) {
        best = score;
        bestI = i;
      }
    }
  }
  let zAll = allSum(lid, z);
  let tok = allArgmax(lid, best, bestI);

  if (lid == 0u) {
    let o = u.col * 2u * u.B + row;
    if (done[row] != 0u) {
      out[o] = u.padId;
      out[o + u.B] = 0u;
      nextTok[row] = u.padId;
    } else {
      out[o] = tok;
      out[o + u.B] = bitcast<u32>(logits[base + tok] * invT - m - log(zAll));
      nextTok[row] = tok;
      if (tok == u.stop0 || tok == u.stop1) { done[row] = 1u; }
    }
  }
}
