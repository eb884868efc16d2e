// Decode-step KV append straight from a fused QKV activation: row b of qkv [B, (Hq + 2·Hkv)·Dh] is q | k | v; its k
// heads are rotated (RoPE at pos[b], the very arithmetic of rope.wgsl) and written with its v heads to cache slot
// slots[b] of kCache, vCache [B, Hkv, maxLen, Dh]. One dispatch instead of a k rope, two strided copies and a cache
// write: on CPU adapters a decode step costs about its dispatch count. Slots >= maxLen are dropped; a position past
// the table gives NaN keys, as rope.wgsl does.
struct U { B: u32, Hq: u32, Hkv: u32, Dh: u32, maxLen: u32, maxPos: u32, sgn: f32, nanBits: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> qkv: array<f32>;
@group(0) @binding(2) var<storage, read> pos: array<u32>;
@group(0) @binding(3) var<storage, read> slots: array<u32>;
@group(0) @binding(4) var<storage, read> table: array<f32>;
@group(0) @binding(5) var<storage, read_write> kCache: array<f32>;
@group(0) @binding(6) var<storage, read_write> vCache: array<f32>;

override WG: u32 = 64;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let half = u.Dh / 2u;
  let idx = gid.x + gid.y * nwg.x * WG;
  if (idx >= u.B * u.Hkv * half) { return; }
  let bg = idx / half;
  let i = idx - bg * half;
  let b = bg / u.Hkv;
  let g = bg - b * u.Hkv;
  let slot = slots[b];
  if (slot >= u.maxLen) { return; }
  let ki = b * (u.Hq + 2u * u.Hkv) * u.Dh + (u.Hq + g) * u.Dh + i;
  let vi = ki + u.Hkv * u.Dh;
  let c = ((b * u.Hkv + g) * u.maxLen + slot) * u.Dh + i;
  vCache[c] = qkv[vi];
  vCache[c + half] = qkv[vi + half];
  let p = pos[b];
  if (p >= u.maxPos) {
    let nan = bitcast<f32>(u.nanBits);
    kCache[c] = nan;
    kCache[c + half] = nan;
    return;
  }
  let a = qkv[ki];
  let e = qkv[ki + half];
  let co = table[p * half + i];
  let s = u.sgn * table[u.maxPos * half + p * half + i];
  kCache[c] = a * co - e * s;
  kCache[c + half] = e * co + a * s;
}
