// Decode attention without barriers, for CPU-emulated WebGPU (SwiftShader), where workgroup barriers are costly.
// Same bindings and semantics as attention_decode.wgsl. Register tiling as in attention.wgsl: one invocation owns
// `rows` query heads of one kv group of one sequence (GQA heads share every k/v load) and walks the cache in blocks
// of 4 keys with one softmax rescale per block (common/online_softmax.wgsl, prepended by the launcher). Dh % 4 == 0;
// rows · Dh/4 <= TILE, rows <= MAXRB.
struct U { B: u32, Hq: u32, Hkv: u32, Dh: u32, maxLen: u32, hasMask: u32, scale: f32, rows: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> q: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> kCache: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> vCache: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> lens: array<u32>;
@group(0) @binding(5) var<storage, read> keyValid: array<u32>; // a dummy unless hasMask
@group(0) @binding(6) var<storage, read_write> out: array<vec4<f32>>;

override WG: u32 = 8;
const TILE: u32 = 64u;
const MAXRB: u32 = 8u;
const NEG_BIG: f32 = -3.0e38;

fn keyOk(b: u32, j: u32, len: u32) -> bool {
  return j < len && (u.hasMask == 0u || keyValid[b * u.maxLen + j] != 0u);
}

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let idx = gid.x + gid.y * nwg.x * WG;
  let DH4 = u.Dh / 4u;
  let RB = u.rows;
  let G = u.Hq / u.Hkv;
  let chunks = (G + RB - 1u) / RB;
  if (idx >= u.B * u.Hkv * chunks) { return; }
  let c = idx % chunks;
  let g = (idx / chunks) % u.Hkv;
  let b = idx / (chunks * u.Hkv);
  let h0 = g * G + c * RB;
  let hLast = g * G + min(c * RB + RB, G) - 1u;
  let len = min(lens[b], u.maxLen);
  let cacheBase = (b * u.Hkv + g) * u.maxLen;
  var qr: array<vec4<f32>, TILE>;
  var acc = array<vec4<f32>, TILE>();
  var m: array<f32, MAXRB>;
  var l = array<f32, MAXRB>();
  for (var r = 0u; r < RB; r++) {
    let qBase = (b * u.Hq + min(h0 + r, hLast)) * DH4;
    for (var d = 0u; d < DH4; d++) {
      qr[r * DH4 + d] = q[qBase + d] * u.scale;
    }
    m[r] = NEG_BIG;
  }
  let lastKey = max(len, 1u) - 1u;
  for (var j0 = 0u; j0 < len; j0 += 4u) {
    let jb = min(vec4<u32>(j0, j0 + 1u, j0 + 2u, j0 + 3u), vec4<u32>(j0, lastKey, lastKey, lastKey));
    let kb = (cacheBase + jb) * DH4;
    var sc = array<vec4<f32>, MAXRB>();
    for (var d = 0u; d < DH4; d++) {
      let kd = mat4x4<f32>(kCache[kb.x + d], kCache[kb.y + d], kCache[kb.z + d], kCache[kb.w + d]);
      for (var r = 0u; r < RB; r++) {
        let qv = qr[r * DH4 + d];
        sc[r] += vec4<f32>(dot(qv, kd[0]), dot(qv, kd[1]), dot(qv, kd[2]), dot(qv, kd[3]));
      }
    }
    let ok = vec4<bool>(keyOk(b, j0, len), keyOk(b, j0 + 1u, len), keyOk(b, j0 + 2u, len), keyOk(b, j0 + 3u, len));
    var pr: array<vec4<f32>, MAXRB>;
    var cr: array<f32, MAXRB>;
    for (var r = 0u; r < RB; r++) {
      let st = softmaxStep(sc[r], ok, m[r], l[r]);
      m[r] = st.m;
      l[r] = st.l;
      cr[r] = st.c;
      pr[r] = st.p;
    }
    for (var d = 0u; d < DH4; d++) {
      let vd = mat4x4<f32>(vCache[kb.x + d], vCache[kb.y + d], vCache[kb.z + d], vCache[kb.w + d]);
      for (var r = 0u; r < RB; r++) {
        let i = r * DH4 + d;
        acc[i] = rescaleAdd(acc[i], cr[r], pr[r], vd);
      }
    }
  }
  for (var r = 0u; r < RB; r++) {
    let h = h0 + r;
    if (h > hLast) { break; }
    let inv = select(0.0, 1.0 / l[r], l[r] > 0.0);
    for (var d = 0u; d < DH4; d++) { out[(b * u.Hq + h) * DH4 + d] = acc[r * DH4 + d] * inv; }
  }
}
