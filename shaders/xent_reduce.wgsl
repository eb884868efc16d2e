// Cross-entropy reduction in one workgroup: stats[0] = Σ loss / max(1, Σ mask), stats[1] = Σ mask.
struct U { T: u32, _p0: u32, _p1: u32, _p2: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> loss: array<f32>;
@group(0) @binding(2) var<storage, read> mask: array<f32>;
@group(0) @binding(3) var<storage, read_write> stats: array<f32>;

override WG: u32 = 256; // power of two

var<workgroup> smL: array<f32, WG>;
var<workgroup> smC: array<f32, WG>;

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32) {
  var l = 0.0;
  var c = 0.0;
  for (var t = lid; t < u.T; t += WG) {
    l += loss[t];
    c += mask[t];
  }
  smL[lid] = l;
  smC[lid] = c;
  workgroupBarrier();
  for (var stride = WG / 2u; stride > 0u; stride >>= 1u) {
    if (lid < stride) {
      smL[lid] += smL[lid + stride];
      smC[lid] += smC[lid + stride];
    }
    workgroupBarrier();
  }
  if (lid == 0u) {
    stats[0] = smL[0] / max(1.0, smC[0]);
    stats[1] = smC[0];
  }
}
