// Causal grouped-query self-attention forward with an online softmax (one pass over the keys, no score matrix).
// q [T, Hq, Dh], k/v [T, Hkv, Dh], out [T, Hq, Dh], lse [T, Hq]; T = B·S, causal within each length-S sequence,
// query head h reads kv head h / (Hq / Hkv). keyMask [T] (u32 or f32: any non-zero bit pattern = valid) hides pad
// keys. A query with no valid key gets out = 0 and lse = -3e38. Dh % 4 == 0, Dh <= 4·TILE. hasMask = 2 hides
// masked query rows too (out = 0, lse = -3e38, no work): the model's pad rows, whose outputs no loss reads; the key
// loop then stops at the chunk's last live row, so right-padded batches skip the pads' share of the S² work.
// Register tiling (the matmul idiom that pays on SwiftShader): each invocation owns RB consecutive query rows of one
// head and walks the keys in blocks of 4, so every k/v vec4 it loads feeds RB rows, and the softmax rescale happens
// once per block. (Baking Dh/4 and RB in as pipeline constants measured no faster, so they are uniforms.)
// Uniforms, bindings 0-4, tile constants and row indexing: common/attention_rows.wgsl, prepended by the launcher.
@group(0) @binding(5) var<storage, read_write> out: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> lse: array<f32>;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let blk = rowBlock(gid, nwg, u.Hq);
  if (!blk.ok) { return; }
  let DH4 = u.Dh / 4u;
  let RB = u.rows;
  let h = blk.head;
  let g = h / (u.Hq / u.Hkv);
  let row0 = blk.first;
  let rowLast = blk.last; // last real row of this invocation (and last key it needs)
  let maskQ = u.hasMask == 2u;
  let lv = liveRows(row0, rowLast);
  let live = lv.last;
  if (!lv.any) {
    for (var r = row0; r <= rowLast; r++) {
      for (var d = 0u; d < DH4; d++) { out[(r * u.Hq + h) * DH4 + d] = vec4<f32>(0.0); }
      lse[r * u.Hq + h] = NEG_BIG;
    }
    return;
  }
  var qr: array<vec4<f32>, TILE>;
  var acc: array<vec4<f32>, TILE>;
  var m: array<f32, MAXRB>;
  var l: array<f32, MAXRB>;
  for (var r = 0u; r < RB; r++) {
    let qBase = ((min(row0 + r, rowLast)) * u.Hq + h) * DH4;
    for (var d = 0u; d < DH4; d++) {
      qr[r * DH4 + d] = q[qBase + d] * u.scale;
      acc[r * DH4 + d] = vec4<f32>(0.0);
    }
    m[r] = NEG_BIG;
    l[r] = 0.0;
  }
  for (var j0 = firstKey(blk.seqStart, live); j0 <= live; j0 += 4u) {
    let kb0 = (j0 * u.Hkv + g) * DH4;
    let kb1 = (min(j0 + 1u, rowLast) * u.Hkv + g) * DH4;
    let kb2 = (min(j0 + 2u, rowLast) * u.Hkv + g) * DH4;
    let kb3 = (min(j0 + 3u, rowLast) * u.Hkv + g) * DH4;
    var sc: array<vec4<f32>, MAXRB>;
    for (var r = 0u; r < RB; r++) { sc[r] = vec4<f32>(0.0); }
    for (var d = 0u; d < DH4; d++) {
      let k0 = k[kb0 + d];
      let k1 = k[kb1 + d];
      let k2 = k[kb2 + d];
      let k3 = k[kb3 + d];
      for (var r = 0u; r < RB; r++) {
        let qv = qr[r * DH4 + d];
        sc[r] += vec4<f32>(dot(qv, k0), dot(qv, k1), dot(qv, k2), dot(qv, k3));
      }
    }
    let ok = vec4<bool>(keyOk(j0, rowLast), keyOk(j0 + 1u, rowLast), keyOk(j0 + 2u, rowLast), keyOk(j0 + 3u, rowLast));
    var pr: array<vec4<f32>, MAXRB>;
    var cr: array<f32, MAXRB>;
    for (var r = 0u; r < RB; r++) {
      let row = row0 + r;
      let okr = ok & vec4<bool>(j0 <= row, j0 + 1u <= row, j0 + 2u <= row, j0 + 3u <= row);
      let s = select(vec4<f32>(NEG_BIG), sc[r], okr);
      let mNew = max(m[r], max(max(s.x, s.y), max(s.z, s.w)));
      let p = select(vec4<f32>(0.0), exp(s - mNew), okr);
      cr[r] = exp(m[r] - mNew);
      l[r] = l[r] * cr[r] + p.x + p.y + p.z + p.w;
      m[r] = mNew;
      pr[r] = p;
    }
    for (var d = 0u; d < DH4; d++) {
      let v0 = v[kb0 + d];
      let v1 = v[kb1 + d];
      let v2 = v[kb2 + d];
      let v3 = v[kb3 + d];
      for (var r = 0u; r < RB; r++) {
        let p = pr[r];
        let i = r * DH4 + d;
        acc[i] = acc[i] * cr[r] + p.x * v0 + p.y * v1 + p.z * v2 + p.w * v3;
      }
    }
  }
  for (var r = 0u; r < RB; r++) {
    let row = row0 + r;
    if (row > rowLast) { break; }
    let oBase = (row * u.Hq + h) * DH4;
    let has = l[r] > 0.0 && !(maskQ && keyMask[row] == 0u);
    let inv = select(0.0, 1.0 / l[r], has);
    for (var d = 0u; d < DH4; d++) { out[oBase + d] = acc[r * DH4 + d] * inv; }
    lse[row * u.Hq + h] = select(NEG_BIG, m[r] + log(l[r]), has);
  }
}
