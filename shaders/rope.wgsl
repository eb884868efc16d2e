// Rotary position embedding, Qwen2/HF style (rotate_half: the two halves of each head are the pairs), on x [T, H, Dh]
// with a u32 position per token. cos/sin come from a table [maxPos, Dh/2] (cos block, then sin block) computed in
// float64 on the CPU: WGSL's sin/cos are only accurate to ~2^-11 and only on [-pi, pi], too coarse for grad checks.
// sgn = +1 rotates forward; sgn = -1 rotates back, which is exactly the backward pass (the rotation is orthogonal).
// Rows may be strided views (xOff + t * xStride), e.g. the q or k slice of a fused QKV activation.
struct U { T: u32, H: u32, Dh: u32, maxPos: u32, sgn: f32, nanBits: u32, xOff: u32, xStride: u32, yOff: u32, yStride: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> pos: array<u32>;
@group(0) @binding(3) var<storage, read> table: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;

override WG: u32 = 256;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let half = u.Dh / 2u;
  let idx = gid.x + gid.y * nwg.x * WG;
  if (idx >= u.T * u.H * half) { return; }
  let th = idx / half;
  let i = idx - th * half;
  let t = th / u.H;
  let h = th - t * u.H;
  let xi = u.xOff + t * u.xStride + h * u.Dh + i;
  let yi = u.yOff + t * u.yStride + h * u.Dh + i;
  let p = pos[t];
  let a = x[xi];
  let b = x[xi + half];
  if (p >= u.maxPos) {
    // A position past the table is a caller bug: make it loud (NaN, passed as a runtime value) instead of wrapping.
    let nan = bitcast<f32>(u.nanBits);
    y[yi] = nan;
    y[yi + half] = nan;
    return;
  }
  let c = table[p * half + i];
  let s = u.sgn * table[u.maxPos * half + p * half + i];
  y[yi] = a * c - b * s;
  y[yi + half] = b * c + a * s;
}
