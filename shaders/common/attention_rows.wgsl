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

// With hasMask = 2, masked query rows (the model's pad rows, whose outputs no loss reads) get constant outputs.
fn maskedQuery(row: u32) -> bool {
  return u.hasMask == 2u && keyMask[row] == 0u;
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
      if (!maskedQuery(r)) { lv = LiveRows(r, true); }
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

// The query side of a row block (attention.wgsl, attention_backward_q.wgsl): query head h and its kv head g, rows
// [first, last], and the key blocks j0 = key0, key0 + 4, ... <= live their key loop visits. A block whose rows are
// all masked queries gets an empty key range, so its outputs take the masked-row values with no work and no extra path.
struct QueryBlock { ok: bool, h: u32, g: u32, first: u32, last: u32, key0: u32, live: u32 }

fn queryBlock(gid: vec3<u32>, nwg: vec3<u32>) -> QueryBlock {
  let blk = rowBlock(gid, nwg, u.Hq);
  var qb = QueryBlock(blk.ok, blk.head, blk.head / (u.Hq / u.Hkv), blk.first, blk.last, blk.last + 1u, blk.last);
  if (blk.ok) {
    let lv = liveRows(blk.first, blk.last);
    if (lv.any) {
      qb.live = lv.last;
      qb.key0 = firstKey(blk.seqStart, lv.last);
    }
  }
  return qb;
}

// The rows i0 .. i0 + 3 of a block of four (keys or queries); rows past `last` clamp to it (and are masked by the
// caller).
fn block4(i0: u32, last: u32) -> vec4<u32> {
  return min(vec4<u32>(i0, i0 + 1u, i0 + 2u, i0 + 3u), vec4<u32>(i0, last, last, last));
}

// vec4 offsets of the four k/v rows j0 .. j0 + 3 of kv head g (keyBlockOk masks the clamped ones).
fn keyBlock(j0: u32, g: u32, last: u32) -> vec4<u32> {
  return (block4(j0, last) * u.Hkv + g) * (u.Dh / 4u);
}

fn keyBlockOk(j0: u32, last: u32) -> vec4<bool> {
  return vec4<bool>(keyOk(j0, last), keyOk(j0 + 1u, last), keyOk(j0 + 2u, last), keyOk(j0 + 3u, last));
}

// keyBlockOk narrowed to the keys query row `row` may see (causal).
fn causalOk(ok: vec4<bool>, j0: u32, row: u32) -> vec4<bool> {
  return ok & vec4<bool>(j0 <= row, j0 + 1u <= row, j0 + 2u <= row, j0 + 3u <= row);
}

// Column d of the four k (or v) rows at offsets kb, as the columns of a matrix.
fn kRows(kb: vec4<u32>, d: u32) -> mat4x4<f32> {
  return mat4x4<f32>(k[kb.x + d], k[kb.y + d], k[kb.z + d], k[kb.w + d]);
}

fn vRows(kb: vec4<u32>, d: u32) -> mat4x4<f32> {
  return mat4x4<f32>(v[kb.x + d], v[kb.y + d], v[kb.z + d], v[kb.w + d]);
}
