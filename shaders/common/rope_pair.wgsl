// RoPE arithmetic shared by rope.wgsl and attention_cache_rope.wgsl (prepended by their launchers, so the decode
// step's cached keys are bit-identical to the training rope). The kernel declares `table` (cos block, then sin block,
// [maxPos, Dh/2] each) and a struct U with Dh, maxPos, sgn and nanBits.

// Pair i (of Dh/2) of head `head` of row `row`, for the invocation that owns pair idx of rows · heads · Dh/2.
struct RopeIndex { ok: bool, row: u32, head: u32, i: u32 }

fn ropeIndex(gid: vec3<u32>, nwg: vec3<u32>, rows: u32, heads: u32) -> RopeIndex {
  let half = u.Dh / 2u;
  let idx = gid.x + gid.y * nwg.x * WG;
  let rh = idx / half;
  let row = rh / heads;
  return RopeIndex(idx < rows * heads * half, row, rh - row * heads, idx - rh * half);
}

// The pair (a, b) = (x[i], x[i + Dh/2]) rotated by position p (rotate_half; sgn = -1 rotates back). A position past
// the table is a caller bug: both come out NaN (passed as a runtime value) instead of wrapping.
fn ropePair(a: f32, b: f32, p: u32, i: u32) -> vec2<f32> {
  if (p >= u.maxPos) {
    let nan = bitcast<f32>(u.nanBits);
    return vec2<f32>(nan, nan);
  }
  let half = u.Dh / 2u;
  let c = table[p * half + i];
  let s = u.sgn * table[u.maxPos * half + p * half + i];
  return vec2<f32>(a * c - b * s, b * c + a * s);
}
