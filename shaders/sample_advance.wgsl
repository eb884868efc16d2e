// Advances the per-sequence decode counters by one generated token, on the GPU, so decoding needs no host writes
// between steps: RoPE position, KV-cache slot of the next token and the attended key count.
struct U { B: u32, _p0: u32, _p1: u32, _p2: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read_write> positions: array<u32>;
@group(0) @binding(2) var<storage, read_write> slots: array<u32>;
@group(0) @binding(3) var<storage, read_write> lens: array<u32>;

override WG: u32 = 64;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let b = gid.x;
  if (b >= u.B) { return; }
  positions[b] += 1u;
  slots[b] += 1u;
  lens[b] += 1u;
}
