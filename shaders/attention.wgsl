// Causal grouped-query self-attention forward with an online softmax (one pass over the keys, no score matrix).
// q [T, Hq, Dh], k/v [T, Hkv, Dh], out [T, Hq, Dh], lse [T, Hq]; T = B·S, causal within each length-S sequence,
// query head h reads kv head h / (Hq / Hkv). keyMask [T] (u32 or f32: any non-zero bit pattern = valid) hides pad
// keys. A query with no valid key gets out = 0 and lse = -3e38. Dh % 4 == 0, Dh <= 4·TILE. hasMask = 2 hides
// masked query rows too (out = 0, lse = -3e38, no work): the model's pad rows, whose outputs no loss reads; the key
// loop then stops at the chunk's last live row, so right-padded batches skip the pads' share of the S² work.
// Register tiling (the matmul idiom that pays on SwiftShader): each invocation owns RB consecutive query rows of one
// head and walks the keys in blocks of 4, so every k/v vec4 it loads feeds RB rows, and the softmax rescale happens
// once per block. (Baking Dh/4 and RB in as pipeline constants measured no faster, so they are uniforms.)
// Uniforms, bindings 0-4, tile constants and row indexing: common/attention_rows.wgsl; the softmax step:
// common/online_softmax.wgsl; both prepended by the launcher.
@group(0) @binding(5) var<storage, read_write> out: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> lse: array<f32>;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let qb = queryBlock(gid, nwg);
  if (!qb.ok) { return; }
  var m: array<f32, MAXRB>; // running max and sum of the online softmax, per row
  var l = array<f32, MAXRB>();
  var qr: array<vec4<f32>, TILE>;
  var acc = array<vec4<f32>, TILE>();
  let DH4 = u.Dh / 4u;
  let RB = u.rows;
  for (var r = 0u; r < RB; r++) {
    let qBase = ((min(qb.first + r, qb.last)) * u.Hq + qb.h) * DH4;
    for (var d = 0u; d < DH4; d++) {
      qr[r * DH4 + d] = q[qBase + d] * u.scale;
    }
    m[r] = NEG_BIG;
  }
  for (var j0 = qb.key0; j0 <= qb.live; j0 += 4u) {
    let kb = keyBlock(j0, qb.g, qb.last);
    var sc = array<vec4<f32>, MAXRB>();
    for (var d = 0u; d < DH4; d++) {
      let kd = kRows(kb, d);
      for (var r = 0u; r < RB; r++) {
        let qv = qr[r * DH4 + d];
        sc[r] += vec4<f32>(dot(qv, kd[0]), dot(qv, kd[1]), dot(qv, kd[2]), dot(qv, kd[3]));
      }
    }
    let ok = keyBlockOk(j0, qb.last);
    var pr: array<vec4<f32>, MAXRB>;
    var cr: array<f32, MAXRB>;
    for (var r = 0u; r < RB; r++) {
      let st = softmaxStep(sc[r], causalOk(ok, j0, qb.first + r), m[r], l[r]);
      m[r] = st.m;
      l[r] = st.l;
      cr[r] = st.c;
      pr[r] = st.p;
    }
    for (var d = 0u; d < DH4; d++) {
      let vd = vRows(kb, d);
      for (var r = 0u; r < RB; r++) {
        let i = r * DH4 + d;
        acc[i] = rescaleAdd(acc[i], cr[r], pr[r], vd);
      }
    }
  }
  for (var r = 0u; r < RB; r++) {
    let row = qb.first + r;
    if (row > qb.last) { break; }
    let oBase = (row * u.Hq + qb.h) * DH4;
    let has = l[r] > 0.0 && !maskedQuery(row);
    let inv = select(0.0, 1.0 / l[r], has);
    for (var d = 0u; d < DH4; d++) { out[oBase + d] = acc[r * DH4 + d] * inv; }
    lse[row * u.Hq + qb.h] = select(NEG_BIG, m[r] + log(l[r]), has);
  }
}
