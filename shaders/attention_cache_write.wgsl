// KV-cache append: rows k/v [B, n, Hkv, Dh] (n new tokens per sequence, e.g. a prompt or one decode step) go to
// cache positions startPos[b] + s of caches [B, Hkv, maxLen, Dh]; positions >= maxLen are dropped.
struct U { B: u32, n: u32, Hkv: u32, Dh: u32, maxLen: u32, _p0: u32, _p1: u32, _p2: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> k: array<f32>;
@group(0) @binding(2) var<storage, read> v: array<f32>;
@group(0) @binding(3) var<storage, read> startPos: array<u32>;
@group(0) @binding(4) var<storage, read_write> kCache: array<f32>;
@group(0) @binding(5) var<storage, read_write> vCache: array<f32>;

override WG: u32 = 256;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= u.B * u.n * u.Hkv * u.Dh) { return; }
  let d = i % u.Dh;
  let g = (i / u.Dh) % u.Hkv;
  let s = (i / (u.Dh * u.Hkv)) % u.n;
  let b = i / (u.Dh * u.Hkv * u.n);
  let pos = startPos[b] + s;
  if (pos >= u.maxLen) { return; }
  let c = ((b * u.Hkv + g) * u.maxLen + pos) * u.Dh + d;
  kCache[c] = k[i];
  vCache[c] = v[i];
}
