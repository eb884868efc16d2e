// Workgroup reductions of the one-workgroup-per-row kernels (logprobs, xent, rmsnorm), prepended by their launchers
// as grpo_loss_common.wgsl is. The shader declares `override WG: u32` (a power of two); WGSL resolves module-scope
// names in any order. Each reduction is a tree over workgroup memory, log2(WG) + 1 barriers.

const NEG_BIG: f32 = -3.0e38;

// The row of this workgroup in a 1-D grid spilled into y (grid1d in src/gpu/kernels/grid.ts).
fn rowOf(wid: vec3<u32>, nwg: vec3<u32>) -> u32 { return wid.x + wid.y * nwg.x; }

var<workgroup> smM: array<f32, WG>;
var<workgroup> smS: array<f32, WG>;
var<workgroup> smW: array<f32, WG>;

// Σ v over the workgroup; every thread gets the total, and may reduce again (the last barrier orders the reads).
fn workgroupSum(lid: u32, v: f32) -> f32 {
  smS[lid] = v;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s / 2u) {
    if (lid < s) { smS[lid] += smS[lid + s]; }
    workgroupBarrier();
  }
  let total = smS[0];
  workgroupBarrier();
  return total;
}

// Per-thread logsumexp states (m = max, s = Σ exp(z - m)) merged over the workgroup: every thread reads the row's
// (m, s) after the tree's last barrier, so a second reduction in the same invocation must barrier first.
fn workgroupMaxSum(lid: u32, m: f32, s: f32) -> vec2<f32> {
  smM[lid] = m;
  smS[lid] = s;
  workgroupBarrier();
  for (var stride = WG / 2u; stride > 0u; stride >>= 1u) {
    if (lid < stride) {
      let m2 = max(smM[lid], smM[lid + stride]);
      smS[lid] = smS[lid] * exp(smM[lid] - m2) + smS[lid + stride] * exp(smM[lid + stride] - m2);
      smM[lid] = m2;
    }
    workgroupBarrier();
  }
  return vec2<f32>(smM[0], smS[0]);
}

// State (m, s, w): s = sum exp(z - m), w = sum exp(z - m) * (z - m). Keeping w relative to m avoids the
// cancellation of entropy = lse - E[z] when logits are large.
struct St { m: f32, s: f32, w: f32 }

fn merge(a: St, b: St) -> St {
  let m = max(a.m, b.m);
  let ea = exp(a.m - m);
  let eb = exp(b.m - m);
  return St(m, a.s * ea + b.s * eb, ea * (a.w + a.s * (a.m - m)) + eb * (b.w + b.s * (b.m - m)));
}

// workgroupMaxSum with the weighted sum w as well (for the entropy); the same one-call rule.
fn workgroupMerge(lid: u32, st: St) -> St {
  smM[lid] = st.m;
  smS[lid] = st.s;
  smW[lid] = st.w;
  workgroupBarrier();
  for (var stride = WG / 2u; stride > 0u; stride >>= 1u) {
    if (lid < stride) {
      let r = merge(St(smM[lid], smS[lid], smW[lid]), St(smM[lid + stride], smS[lid + stride], smW[lid + stride]));
      smM[lid] = r.m;
      smS[lid] = r.s;
      smW[lid] = r.w;
    }
    workgroupBarrier();
  }
  return St(smM[0], smS[0], smW[0]);
}
