// Attention backward, pass 2 (per key rows and kv head, so no float atomics): sums over the later query rows i of
// the sequence and over the Hq/Hkv query heads of the group: dv_j = Σ P_ij dO_i, dk_j = scale · Σ P_ij (dP_ij − D_i) q_i.
// A masked key gets dk = dv = 0. Same layout as attention.wgsl; D comes from attention_backward_q.wgsl. Register
// tiling: RB keys per invocation, query rows in blocks of 4.
// Uniforms, bindings 0-4, tile constants and row indexing: common/attention_rows.wgsl, prepended by the launcher.
@group(0) @binding(5) var<storage, read> dout: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read> lse: array<f32>;
@group(0) @binding(7) var<storage, read> dsum: array<f32>;
@group(0) @binding(8) var<storage, read_write> dk: array<vec4<f32>>;
@group(0) @binding(9) var<storage, read_write> dv: array<vec4<f32>>;

// Column d of the q and dout rows qi (a block of four query rows of one head), as the columns of two matrices.
struct QueryCols { q: mat4x4<f32>, o: mat4x4<f32> }

fn queryCols(qi: vec4<u32>, d: u32) -> QueryCols {
  let o = qi * (u.Dh / 4u) + d;
  let qm = mat4x4<f32>(q[o.x], q[o.y], q[o.z], q[o.w]);
  return QueryCols(qm, mat4x4<f32>(dout[o.x], dout[o.y], dout[o.z], dout[o.w]));
}

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let blk = rowBlock(gid, nwg, u.Hkv);
  if (!blk.ok) { return; }
  let DH4 = u.Dh / 4u;
  let RB = u.rows;
  let g = blk.head;
  let group = u.Hq / u.Hkv;
  let seqEnd = blk.seqStart + u.S;
  let j0 = blk.first;
  let jLast = blk.last;
  var kr: array<vec4<f32>, TILE>;
  var vr: array<vec4<f32>, TILE>;
  var dkAcc = array<vec4<f32>, TILE>();
  var dvAcc = array<vec4<f32>, TILE>();
  var valid: array<bool, MAXRB>;
  for (var r = 0u; r < RB; r++) {
    let j = min(j0 + r, jLast);
    let base = (j * u.Hkv + g) * DH4;
    for (var d = 0u; d < DH4; d++) {
      let i = r * DH4 + d;
      kr[i] = k[base + d] * u.scale;
      vr[i] = v[base + d];
    }
    valid[r] = j0 + r <= jLast && (u.hasMask == 0u || keyMask[j] != 0u);
  }
  let last = seqEnd - 1u;
  // hasMask = 2: masked query rows output a constant 0 and feed nothing back, so queries stop at the sequence's last
  // live row (right padding costs nothing) and masked ones inside are dropped from `ok`.
  let maskQ = u.hasMask == 2u;
  var qEnd = seqEnd;
  if (maskQ) {
    while (qEnd > j0 && keyMask[qEnd - 1u] == 0u) { qEnd -= 1u; }
  }
  var anyKey = false;
  for (var r = 0u; r < RB; r++) { anyKey = anyKey || valid[r]; }
  if (!anyKey) { qEnd = j0; }
  for (var hh = 0u; hh < group; hh++) {
    let h = g * group + hh;
    for (var i0 = j0; i0 < qEnd; i0 += 4u) {
      let qi = block4(i0, last) * u.Hq + h;
      var sc = array<vec4<f32>, MAXRB>();
      var dp = array<vec4<f32>, MAXRB>();
      for (var d = 0u; d < DH4; d++) {
        let c = queryCols(qi, d);
        for (var r = 0u; r < RB; r++) {
          let kv = kr[r * DH4 + d];
          let vv = vr[r * DH4 + d];
          sc[r] += vec4<f32>(dot(kv, c.q[0]), dot(kv, c.q[1]), dot(kv, c.q[2]), dot(kv, c.q[3]));
          dp[r] += vec4<f32>(dot(vv, c.o[0]), dot(vv, c.o[1]), dot(vv, c.o[2]), dot(vv, c.o[3]));
        }
      }
      let l4 = vec4<f32>(lse[qi.x], lse[qi.y], lse[qi.z], lse[qi.w]);
      let D4 = vec4<f32>(dsum[qi.x], dsum[qi.y], dsum[qi.z], dsum[qi.w]);
      var inSeq = vec4<bool>(true, i0 + 1u < seqEnd, i0 + 2u < seqEnd, i0 + 3u < seqEnd);
      if (maskQ) {
        let i = block4(i0, last);
        inSeq = inSeq & vec4<bool>(keyMask[i.x] != 0u, keyMask[i.y] != 0u, keyMask[i.z] != 0u, keyMask[i.w] != 0u);
      }
      var pr: array<vec4<f32>, MAXRB>;
      var ds: array<vec4<f32>, MAXRB>;
      for (var r = 0u; r < RB; r++) {
        let j = j0 + r;
        let ok = inSeq & vec4<bool>(i0 >= j, i0 + 1u >= j, i0 + 2u >= j, i0 + 3u >= j) & vec4<bool>(valid[r]);
        let p = select(vec4<f32>(0.0), exp(sc[r] - l4), ok);
        pr[r] = p;
        ds[r] = p * (dp[r] - D4);
      }
      for (var d = 0u; d < DH4; d++) {
        let c = queryCols(qi, d);
        for (var r = 0u; r < RB; r++) {
          let p = pr[r];
          let w = ds[r];
          let i = r * DH4 + d;
          dvAcc[i] += p.x * c.o[0] + p.y * c.o[1] + p.z * c.o[2] + p.w * c.o[3];
          dkAcc[i] += w.x * c.q[0] + w.y * c.q[1] + w.z * c.q[2] + w.w * c.q[3];
        }
      }
    }
  }
  for (var r = 0u; r < RB; r++) {
    let j = j0 + r;
    if (j > jLast) { break; }
    let base = (j * u.Hkv + g) * DH4;
    for (var d = 0u; d < DH4; d++) {
      dk[base + d] = dkAcc[r * DH4 + d] * u.scale;
      dv[base + d] = dvAcc[r * DH4 + d];
    }
  }
}
