// Layout, inputs and row indexing of the attention training kernels (attention.wgsl, attention_backward_q.wgsl,
// attention_backward_kv.wgsl), prepended by their launcher as row_reduce.wgsl is. q [T, Hq, Dh], k/v [T, Hkv, Dh] as
// vec4 rows, T = B·S; keyMask [T] (u32 or f32: any non-zero bit pattern = valid) is a dummy unless hasMask.
struct U { B: u32, S: u32, Hq: u32, Hkv: u32, Dh: u32, hasMask: u32, scale: f32, rows: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> q: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> k: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> v: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> keyMask: array<u32>;

override WG: u32 = 16;
const TILE: u32 = 64u; // private tile: rows · Dh/4 <= TILE, rows <= MAXRB (checked by the launcher)
const MAXRB: u32 = 8u;
const NEG_BIG: f32 = -3.0e38;

fn keyOk(j: u32, last: u32) -> bool {
  return j <= last && (u.hasMask == 0u || keyMask[j] != 0u);
}

// The rows [first, last] (RB = u.rows of them, fewer at the sequence end) of one head that an invocation owns: the
// launcher's grid is B · ceil(S / RB) · heads invocations, head fastest; ok = false past its end.
struct RowBlock { ok: bool, head: u32, seqStart: u32, first: u32, last: u32 }

fn rowBlock(gid: vec3<u32>, nwg: vec3<u32>, heads: u32) -> RowBlock {
  let idx = gid.x + gid.y * nwg.x * WG;
  let chunks = (u.S + u.rows - 1u) / u.rows;
  let seqStart = (idx / (heads * chunks)) * u.S;
  let first = seqStart + ((idx / heads) % chunks) * u.rows;
  let last = min(first + u.rows, seqStart + u.S) - 1u;
  return RowBlock(idx < u.B * chunks * heads, idx % heads, seqStart, first, last);
}

// The last query row of [first, last] that needs its output, and whether there is one: with hasMask = 2 masked query
// rows (the model's pad rows, whose outputs no loss reads) need none, so key loops stop at the last live row.
struct LiveRows { last: u32, any: bool }

fn liveRows(first: u32, last: u32) -> LiveRows {
  var lv = LiveRows(last, true);
  if (u.hasMask == 2u) {
    lv.any = false;
    for (var r = first; r <= last; r++) {
      if (keyMask[r] != 0u) { lv = LiveRows(r, true); }
    }
  }
  return lv;
}

// The first key worth visiting for query rows up to `live`: with masked queries, left pads are skipped too (keys
// before the sequence's first valid one are no-ops).
fn firstKey(seqStart: u32, live: u32) -> u32 {
  var j = seqStart;
  if (u.hasMask == 2u) {
    while (j < live && keyMask[j] == 0u) { j += 1u; }
  }
  return j;
}
