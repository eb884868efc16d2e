// Decode-step KV append straight from a fused QKV activation: row b of qkv [B, (Hq + 2·Hkv)·Dh] is q | k | v; its k
// heads are rotated (RoPE at pos[b], by common/rope_pair.wgsl as in rope.wgsl) and written with its v heads to cache
// slot slots[b] of kCache, vCache [B, Hkv, maxLen, Dh]. One dispatch instead of a k rope, two strided copies and a
// cache write: on CPU adapters a decode step costs about its dispatch count. Slots >= maxLen are dropped; a position
// past the table gives NaN keys, as rope.wgsl does.
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
  let ri = ropeIndex(gid, nwg, u.B, u.Hkv);
  if (!ri.ok) { return; }
  let b = ri.row;
  let slot = slots[b];
  if (slot >= u.maxLen) { return; }
  let half = u.Dh / 2u;
  let ki = b * (u.Hq + 2u * u.Hkv) * u.Dh + (u.Hq + ri.head) * u.Dh + ri.i;
  let vi = ki + u.Hkv * u.Dh;
  let c = ((b * u.Hkv + ri.head) * u.maxLen + slot) * u.Dh + ri.i;
  vCache[c] = qkv[vi];
  vCache[c + half] = qkv[vi + half];
  let k = ropePair(qkv[ki], qkv[ki + half], pos[b], ri.i);
  kCache[c] = k.x;
  kCache[c + half] = k.y;
}
