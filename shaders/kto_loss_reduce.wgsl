// KTO loss, pass 2: one workgroup turns seqStats [B, 2] into stats [8] (KTO_STATS order):
// [loss, z (reference point), mean r desirable, mean r undesirable, #desirable, #undesirable, completion tokens,
//  mean r over sequences with tokens (z before the clamp)]. (kto_loss_common.wgsl and kto_loss_terms.wgsl are prepended.)
@group(0) @binding(2) var<storage, read> seqStats: array<f32>;
@group(0) @binding(3) var<storage, read_write> stats: array<f32>;

override WG: u32 = 256; // power of two
var<workgroup> sm: array<vec4<f32>, WG>;
var<workgroup> zShared: f32;

fn reduceSm(lid: u32) {
  workgroupBarrier();
  for (var stride = WG / 2u; stride > 0u; stride >>= 1u) {
    if (lid < stride) { sm[lid] += sm[lid + stride]; }
    workgroupBarrier();
  }
}

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32) {
  // Round 1: Σ r over sequences with tokens, their count, Σ tokens.
  var a = vec4<f32>(0.0);
  for (var b = lid; b < u.B; b += WG) {
    let n = seqStats[b * 2u + 1u];
    if (n > 0.0) { a += vec4<f32>(seqStats[b * 2u], 1.0, n, 0.0); }
  }
  sm[lid] = a;
  reduceSm(lid);
  let meanR = sm[0].x / max(1.0, sm[0].y);
  let tokens = sm[0].z;
  if (lid == 0u) {
    zShared = select(max(0.0, meanR), u.zRef, (u.flags & 1u) != 0u);
  }
  workgroupBarrier();
  let z = zShared;
  workgroupBarrier();
  // Round 2: Σ ℓ, Σ r and counts per label.
  var l = vec4<f32>(0.0);
  var c = vec4<f32>(0.0);
  for (var b = lid; b < u.B; b += WG) {
    let label = labels[b];
    let r = seqStats[b * 2u];
    l.x += seqTerms(label, r, z).x;
    if (label > 0.0) { l.y += r; c.x += 1.0; }
    if (label < 0.0) { l.z += r; c.y += 1.0; }
  }
  sm[lid] = l;
  reduceSm(lid);
  let sl = sm[0];
  workgroupBarrier();
  sm[lid] = c;
  reduceSm(lid);
  let sc = sm[0];
  if (lid == 0u) {
    stats[0] = u.lossScale * sl.x / max(1.0, sc.x + sc.y);
    stats[1] = z;
    stats[2] = sl.y / max(1.0, sc.x);
    stats[3] = sl.z / max(1.0, sc.y);
    stats[4] = sc.x;
    stats[5] = sc.y;
    stats[6] = tokens;
    stats[7] = meanR;
  }
}
