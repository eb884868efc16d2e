// f16 Linear of the f16 compute path: y[M, N] = f16(f16(x[M, K]) · W[N, K]ᵀ + bias), stored into y, or added to y (a
// residual stream) when flags bit 1 is set. W is f16, each row padded with zero halves to a multiple of 4 (one vec4
// load per 4 columns). x and y are f32 buffers whose values this kernel treats as f16 activation storage: x is rounded
// to f16 as it is loaded and the result is rounded to f16 before it is stored. Products of two halves are exact in
// f32, and every sum (the dot product, the bias, the residual add) is an f32 one.
// A prelude declares W (binding 2) and defines wLoad / r16: shaders/linear_f16_native.wgsl (`enable f16`, used when
// the device has 'shader-f16') or shaders/linear_f16_packed.wgsl (core WGSL pack/unpack builtins; the same bits and
// numbers, runnable on adapters without f16 such as SwiftShader). common/store_tile.wgsl is appended.
// Each invocation computes TM rows of x against NF (4 or 8) output features, reusing every W vec4 TM times.
struct U { M: u32, N: u32, K: u32, rowVec4: u32, xOff: u32, yOff: u32, biasOff: u32, flags: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;

override WG: u32 = 64;
override TM: u32 = 1;
override NF: u32 = 4;

// x[row, k..k+3] as f16 values. Columns past K read the row's last value and are then zeroed, so an overflowed
// activation (inf) never meets W's zero padding (inf · 0 = NaN).
fn x4(base: u32, k: u32) -> vec4<f32> {
  let last = u.K - 1u;
  let v = vec4<f32>(x[base + min(k, last)], x[base + min(k + 1u, last)], x[base + min(k + 2u, last)],
                    x[base + min(k + 3u, last)]);
  return r16(select(v, vec4<f32>(0.0), vec4<u32>(k, k + 1u, k + 2u, k + 3u) >= vec4<u32>(u.K)));
}

fn store(row: u32, n0: u32, v: vec4<f32>) {
  if (row >= u.M || n0 >= u.N) { return; }
  var b = vec4<f32>(0.0);
  if ((u.flags & 1u) != 0u) {
    let last = u.N - 1u;
    b = vec4<f32>(bias[u.biasOff + n0], bias[u.biasOff + min(n0 + 1u, last)], bias[u.biasOff + min(n0 + 2u, last)],
                  bias[u.biasOff + min(n0 + 3u, last)]);
  }
  let out = r16(v + b);
  let base = u.yOff + row * u.N + n0;
  for (var j = 0u; j < 4u; j++) {
    if (n0 + j < u.N) {
      if ((u.flags & 2u) != 0u) { y[base + j] = y[base + j] + out[j]; } else { y[base + j] = out[j]; }
    }
  }
}

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let n0 = gid.x * NF;
  let row0 = gid.y * TM;
  if (n0 >= u.N || row0 >= u.M) { return; }
  let lastN = u.N - 1u;
  let lastM = u.M - 1u;
  // Features past N and rows past M are clamped (loads stay in bounds; store() drops their results).
  var wr: array<u32, 8>;
  for (var j = 0u; j < NF; j++) { wr[j] = min(n0 + j, lastN) * u.rowVec4; }
  var xr: array<u32, 8>;
  for (var r = 0u; r < TM; r++) { xr[r] = u.xOff + min(row0 + r, lastM) * u.K; }
  var a: array<vec4<f32>, 8>;
  var h: array<vec4<f32>, 8>;
  for (var c = 0u; c < u.rowVec4; c++) {
    let w0 = wLoad(wr[0] + c);
    let w1 = wLoad(wr[1] + c);
    let w2 = wLoad(wr[2] + c);
    let w3 = wLoad(wr[3] + c);
    var w4 = vec4<f32>(0.0);
    var w5 = vec4<f32>(0.0);
    var w6 = vec4<f32>(0.0);
    var w7 = vec4<f32>(0.0);
    if (NF > 4u) {
      w4 = wLoad(wr[4] + c);
      w5 = wLoad(wr[5] + c);
      w6 = wLoad(wr[6] + c);
      w7 = wLoad(wr[7] + c);
    }
    for (var r = 0u; r < TM; r++) {
      let xv = x4(xr[r], 4u * c);
      a[r] += vec4<f32>(dot(xv, w0), dot(xv, w1), dot(xv, w2), dot(xv, w3));
      if (NF > 4u) { h[r] += vec4<f32>(dot(xv, w4), dot(xv, w5), dot(xv, w6), dot(xv, w7)); }
    }
  }
  storeTile(row0, n0, TM, NF > 4u, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], h[0], h[1], h[2], h[3], h[4], h[5],
            h[6], h[7]);
}
