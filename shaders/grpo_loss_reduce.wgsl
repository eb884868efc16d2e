// GRPO loss, pass 2: one workgroup reduces seqStats [B, 8] into stats [8]:
// [loss, mean kl, low-clip frac, high-clip frac, mean IS weight, dual-clip frac, completion tokens, mean mismatch k3].
// loss_type 0 grpo: mean_b(Σ_t loss / max(1, n_b)); 1 dr_grpo: Σ loss / (B · max_completion_length);
// 2 dapo: Σ loss / max(1, N), N = normTokens if > 0 else Σ n_b. Means of the other stats are over completion tokens.
struct U {
  B: u32, S: u32, lossType: u32, flags: u32,
  epsLow: f32, epsHigh: f32, clipC: f32, beta: f32,
  isCap: f32, maxCompletionLength: f32, normTokens: f32, lossScale: f32,
}
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> seqStats: array<f32>;
@group(0) @binding(2) var<storage, read_write> stats: array<f32>;

override WG: u32 = 256; // power of two
var<workgroup> sm: array<f32, WG * 9u>;

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32) {
  var acc: array<f32, 9>; // slots 0..7 as seqStats, 8 = Σ_b loss_b / max(1, n_b)
  for (var k = 0u; k < 9u; k++) { acc[k] = 0.0; }
  for (var b = lid; b < u.B; b += WG) {
    for (var k = 0u; k < 8u; k++) { acc[k] += seqStats[b * 8u + k]; }
    acc[8] += seqStats[b * 8u] / max(1.0, seqStats[b * 8u + 1u]);
  }
  for (var k = 0u; k < 9u; k++) { sm[lid * 9u + k] = acc[k]; }
  workgroupBarrier();
  for (var stride = WG / 2u; stride > 0u; stride >>= 1u) {
    if (lid < stride) {
      for (var k = 0u; k < 9u; k++) { sm[lid * 9u + k] += sm[(lid + stride) * 9u + k]; }
    }
    workgroupBarrier();
  }
  if (lid == 0u) {
    let n = sm[1];
    let tokens = max(1.0, n);
    var loss = 0.0;
    if (u.lossType == 0u) {
      loss = sm[8] / f32(u.B);
    } else if (u.lossType == 1u) {
      loss = sm[0] / (f32(u.B) * u.maxCompletionLength);
    } else {
      loss = sm[0] / select(tokens, u.normTokens, u.normTokens > 0.0);
    }
    stats[0] = loss * u.lossScale;
    stats[1] = sm[2] / tokens;
    stats[2] = sm[3] / tokens;
    stats[3] = sm[4] / tokens;
    stats[4] = sm[5] / tokens;
    stats[5] = sm[6] / tokens;
    stats[6] = n;
    stats[7] = sm[7] / tokens;
  }
}
