// Rotary position embedding, Qwen2/HF style (rotate_half: the two halves of each head are the pairs), on x [T, H, Dh]
// with a u32 position per token. cos/sin come from a table [maxPos, Dh/2] (cos block, then sin block) computed in
// float64 on the CPU: WGSL's sin/cos are only accurate to ~2^-11 and only on [-pi, pi], too coarse for grad checks.
// sgn = +1 rotates forward; sgn = -1 rotates back, which is exactly the backward pass (the rotation is orthogonal).
// Rows may be strided views (xOff + t * xStride), e.g. the q or k slice of a fused QKV activation. The indexing and
// the rotation: common/rope_pair.wgsl, prepended by the launcher.
struct U { T: u32, H: u32, Dh: u32, maxPos: u32, sgn: f32, nanBits: u32, xOff: u32, xStride: u32, yOff: u32, yStride: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> pos: array<u32>;
@group(0) @binding(3) var<storage, read> table: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;

override WG: u32 = 256;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let ri = ropeIndex(gid, nwg, u.T, u.H);
  if (!ri.ok) { return; }
  let half = u.Dh / 2u;
  let xi = u.xOff + ri.row * u.xStride + ri.head * u.Dh + ri.i;
  let yi = u.yOff + ri.row * u.yStride + ri.head * u.Dh + ri.i;
  let r = ropePair(x[xi], x[xi + half], pos[ri.row], ri.i);
  y[yi] = r.x;
  y[yi + half] = r.y;
}
