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

// Small on purpose: the reductions below cost two barriers each, and every thread reads all WG partials (O(WG²)
// shared reads per reduction), which is nothing on a GPU but dominates on CPU-emulated ones (SwiftShader).
override WG: u32 = 64;

var<workgroup> red: array<f32, WG>;
var<workgroup> redI: array<u32, WG>;
var<workgroup> part: array<vec4<f32>, WG * 4u>;
var<workgroup> tot: array<vec4<f32>, 4>;

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

// Sums four vec4 per thread over the workgroup: thread r < 4 totals vector r. The next call's first barrier orders
// the reads of `tot` here before its rewrite, so two barriers suffice.
fn sum4x4(lid: u32, a0: vec4<f32>, a1: vec4<f32>, a2: vec4<f32>, a3: vec4<f32>) {
  part[lid] = a0;
  part[WG + lid] = a1;
  part[2u * WG + lid] = a2;
  part[3u * WG + lid] = a3;
  workgroupBarrier();
  for (var r = lid; r < 4u; r += WG) {
    var s = vec4<f32>(0.0);
    for (var j = 0u; j < WG; j++) { s += part[r * WG + j]; }
    tot[r] = s;
  }
  workgroupBarrier();
}

// Radix search, 4 bits per level: the largest key t with W(t) >= goal, where W(t) sums w_i over the tokens with
// key_i >= t and key_i >= floorKey; w_i = 1 (count, for top-k) or exp(s_i - m) (mass, for top-p, where the goal is
// the fraction `goalIn` of the total kept mass). Each level evaluates W at the 16 thresholds prefix | d << shift
// with vector compares (no scattered histogram writes) and keeps the largest d with W >= goal: 8 passes instead
// of 32 binary-search passes. W at d = 0 is the previous level's chosen sum over the same set in the same order,
// so float rounding can never leave a level without an admissible digit.
fn search(lid: u32, base: u32, invT: f32, m: f32, floorKey: u32, mass: bool, goalIn: f32) -> u32 {
  var prefix = 0u;
  var goal = goalIn;
  for (var level = 0u; level < 8u; level++) {
    let shift = vec4<u32>(28u - 4u * level);
    let pre = vec4<u32>(prefix);
    let fl = vec4<u32>(floorKey);
    // Unrolled into four named vectors: SwiftShader runs arrays indexed in loops through memory.
    let thr0 = max(pre | (vec4<u32>(0u, 1u, 2u, 3u) << shift), fl);
    let thr1 = max(pre | (vec4<u32>(4u, 5u, 6u, 7u) << shift), fl);
    let thr2 = max(pre | (vec4<u32>(8u, 9u, 10u, 11u) << shift), fl);
    let thr3 = max(pre | (vec4<u32>(12u, 13u, 14u, 15u) << shift), fl);
    var a0 = vec4<f32>(0.0);
    var a1 = vec4<f32>(0.0);
    var a2 = vec4<f32>(0.0);
    var a3 = vec4<f32>(0.0);
    for (var i = lid; i < u.V; i += WG) {
      let s = logits[base + i] * invT;
      let k = vec4<u32>(key(s));
      let w = vec4<f32>(select(1.0, exp(s - m), mass));
      let zero = vec4<f32>(0.0);
      a0 += select(zero, w, k >= thr0);
      a1 += select(zero, w, k >= thr1);
      a2 += select(zero, w, k >= thr2);
      a3 += select(zero, w, k >= thr3);
    }
    sum4x4(lid, a0, a1, a2, a3);
    let t0 = tot[0];
    let t1 = tot[1];
    let t2 = tot[2];
    let t3 = tot[3];
    if (level == 0u && mass) { goal = goalIn * t0.x; }
    // W is non-increasing in the digit, so the largest admissible digit is the count of admissible ones minus one.
    let one = vec4<f32>(1.0);
    let g = vec4<f32>(goal);
    let zero = vec4<f32>(0.0);
    let n = dot(select(zero, one, t0 >= g), one) + dot(select(zero, one, t1 >= g), one) +
            dot(select(zero, one, t2 >= g), one) + dot(select(zero, one, t3 >= g), one);
    prefix |= (max(u32(n), 1u) - 1u) << shift.x;
  }
  return max(prefix, floorKey);
}

// Gumbel noise of token i for this row's (seed, sequence, step) stream.
fn gumbel(i: u32, rowKey: u32, seedKey: u32) -> f32 {
  let h = mix32(mix32(i ^ rowKey) ^ seedKey);
  let r = (f32(h >> 8u) + 0.5) * (1.0 / 16777216.0);
  return -log(-log(r));
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lidv: vec3<u32>) {
  let row = wid.x;
  let lid = lidv.x;
  let base = row * u.V;
  // Greedy: argmax of the raw logits; its log-prob comes from the untempered, untruncated softmax.
  let greedy = u.invT <= 0.0;
  let invT = select(u.invT, 1.0, greedy);
  let truncate = !greedy && ((u.topK > 0u && u.topK < u.V) || u.topP < 1.0);
  let rowKey = mix32(u.step ^ mix32(seqIds[row] ^ mix32(u.seed)));
  let seedKey = mix32(u.seed + 0x9e3779b9u);

  // Pass 1: online max / sum of exp (the normaliser) and, when nothing is truncated, the draw itself.
  // Gumbel-max: argmax(s_i + g_i), g_i = -log(-log(u_i)), samples softmax(s) exactly.
  var lm = NEG_BIG;
  var lz = 0.0;
  var best = NEG_BIG;
  var bestI = 0xffffffffu;
  for (var i = lid; i < u.V; i += WG) {
    let s = logits[base + i] * invT;
    if (s > lm) {
      lz = lz * exp(lm - s) + 1.0;
      lm = s;
    } else {
      lz += exp(s - lm);
    }
    if (!truncate) {
      var score = s;
      if (!greedy) { score += gumbel(i, rowKey, seedKey); }
      if (score > best) {
        best = score;
        bestI = i;
      }
    }
  }
  let m = allMax(lid, lm);
  var zAll = allSum(lid, lz * exp(lm - m));
  var tok = allArgmax(lid, best, bestI);

  if (truncate) {
    // Top-k: the k-th largest key (ties with it are kept, as in HF's TopKLogitsWarper).
    var thr = 0u;
    if (u.topK > 0u && u.topK < u.V) { thr = search(lid, base, invT, m, 0u, false, f32(u.topK)); }
    // Top-p on the top-k survivors, renormalised: the largest threshold whose mass is >= p of theirs.
    if (u.topP < 1.0) { thr = search(lid, base, invT, m, thr, true, u.topP); }
    // Pass 2: normaliser and draw over the kept tokens.
    var z = 0.0;
    best = NEG_BIG;
    bestI = 0xffffffffu;
    for (var i = lid; i < u.V; i += WG) {
      let s = logits[base + i] * invT;
      if (key(s) >= thr) {
        z += exp(s - m);
        let score = s + gumbel(i, rowKey, seedKey);
        if (score > best) {
          best = score;
          bestI = i;
        }
      }
    }
    zAll = allSum(lid, z);
    tok = allArgmax(lid, best, bestI);
  }

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
