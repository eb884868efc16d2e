// Fast fp32 matmul: register tiles (TM rows x 4 columns per invocation) fed by vec4 loads, no workgroup memory.
// C[M,N] = alpha * op(A)·op(B) + beta * C. On SwiftShader this beats workgroup-memory tiling ~2x.
// Alignment (checked by the launcher): A·B needs K%4 = N%4 = 0; A·Bᵀ needs K%4 = 0; Aᵀ·B needs M%4 = N%4 = 0 and
// TM >= 4; offsets are multiples of 4 elements. Other shapes go to matmul_tiled.wgsl. Edges are handled by clamping
// load indices (always in bounds) and guarding stores, so M and N need not be multiples of the tile.
struct U { M: u32, N: u32, K: u32, alpha: f32, beta: f32, aOff: u32, bOff: u32, cOff: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> b: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

override WG_X: u32 = 16;
override WG_Y: u32 = 4;
// Rows per invocation: 1, 2, 4 or 8. Constant after pipeline creation, so the unused rows compile away.
override TM: u32 = 4;
override TRANS_A: bool = false;
override TRANS_B: bool = false;

fn put(i: u32, v: f32) {
  if (u.beta == 0.0) { c[i] = u.alpha * v; } else { c[i] = u.alpha * v + u.beta * c[i]; }
}

fn store(row: u32, col0: u32, v: vec4<f32>) {
  if (row >= u.M) { return; }
  let i = u.cOff + row * u.N + col0;
  put(i, v.x);
  if (col0 + 1u < u.N) { put(i + 1u, v.y); }
  if (col0 + 2u < u.N) { put(i + 2u, v.z); }
  if (col0 + 3u < u.N) { put(i + 3u, v.w); }
}

// acc += a_row(k..k+3) · B(k..k+3, cols): B given as four vec4 rows.
fn fmaRow(acc: vec4<f32>, av: vec4<f32>, b0: vec4<f32>, b1: vec4<f32>, b2: vec4<f32>, b3: vec4<f32>) -> vec4<f32> {
  return acc + av.x * b0 + av.y * b1 + av.z * b2 + av.w * b3;
}

// acc += dots of a_row(k..k+3) with four rows of Bᵀ.
fn dotRow(acc: vec4<f32>, av: vec4<f32>, b0: vec4<f32>, b1: vec4<f32>, b2: vec4<f32>, b3: vec4<f32>) -> vec4<f32> {
  return acc + vec4<f32>(dot(av, b0), dot(av, b1), dot(av, b2), dot(av, b3));
}

@compute @workgroup_size(WG_X, WG_Y)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let col0 = gid.x * 4u;
  let row0 = gid.y * TM;
  if (col0 >= u.N || row0 >= u.M) { return; }
  let lastRow = u.M - 1u;
  let K4 = u.K / 4u;
  let N4 = u.N / 4u;
  let aOff = u.aOff / 4u;
  let bOff = u.bOff / 4u;
  var acc0 = vec4<f32>(0.0);
  var acc1 = vec4<f32>(0.0);
  var acc2 = vec4<f32>(0.0);
  var acc3 = vec4<f32>(0.0);
  var acc4 = vec4<f32>(0.0);
  var acc5 = vec4<f32>(0.0);
  var acc6 = vec4<f32>(0.0);
  var acc7 = vec4<f32>(0.0);

  if (TRANS_A) {
    // Aᵀ·B: A is [K, M]; one k per step, A and B both read as vec4 along their fast axis.
    let M4 = u.M / 4u;
    let ra0 = aOff + row0 / 4u;
    let ra1 = aOff + min(row0 / 4u + 1u, M4 - 1u);
    let cb = bOff + gid.x;
    for (var k = 0u; k < u.K; k++) {
      let bv = b[cb + k * N4];
      let av = a[ra0 + k * M4];
      acc0 += av.x * bv;
      acc1 += av.y * bv;
      acc2 += av.z * bv;
      acc3 += av.w * bv;
      if (TM > 4u) {
        let av2 = a[ra1 + k * M4];
        acc4 += av2.x * bv;
        acc5 += av2.y * bv;
        acc6 += av2.z * bv;
        acc7 += av2.w * bv;
      }
    }
  } else {
    let ra0 = aOff + min(row0, lastRow) * K4;
    let ra1 = aOff + min(row0 + 1u, lastRow) * K4;
    let ra2 = aOff + min(row0 + 2u, lastRow) * K4;
    let ra3 = aOff + min(row0 + 3u, lastRow) * K4;
    let ra4 = aOff + min(row0 + 4u, lastRow) * K4;
    let ra5 = aOff + min(row0 + 5u, lastRow) * K4;
    let ra6 = aOff + min(row0 + 6u, lastRow) * K4;
    let ra7 = aOff + min(row0 + 7u, lastRow) * K4;
    // A·Bᵀ: B is [N, K]; rows past N are clamped (their results are never stored).
    let lastCol = u.N - 1u;
    let rb0 = bOff + min(col0, lastCol) * K4;
    let rb1 = bOff + min(col0 + 1u, lastCol) * K4;
    let rb2 = bOff + min(col0 + 2u, lastCol) * K4;
    let rb3 = bOff + min(col0 + 3u, lastCol) * K4;
    for (var k = 0u; k < K4; k++) {
      var b0: vec4<f32>;
      var b1: vec4<f32>;
      var b2: vec4<f32>;
      var b3: vec4<f32>;
      if (TRANS_B) {
        b0 = b[rb0 + k];
        b1 = b[rb1 + k];
        b2 = b[rb2 + k];
        b3 = b[rb3 + k];
      } else {
        let bi = bOff + 4u * k * N4 + gid.x;
        b0 = b[bi];
        b1 = b[bi + N4];
        b2 = b[bi + 2u * N4];
        b3 = b[bi + 3u * N4];
      }
      if (TRANS_B) {
        acc0 = dotRow(acc0, a[ra0 + k], b0, b1, b2, b3);
        if (TM > 1u) { acc1 = dotRow(acc1, a[ra1 + k], b0, b1, b2, b3); }
        if (TM > 2u) {
          acc2 = dotRow(acc2, a[ra2 + k], b0, b1, b2, b3);
          acc3 = dotRow(acc3, a[ra3 + k], b0, b1, b2, b3);
        }
        if (TM > 4u) {
          acc4 = dotRow(acc4, a[ra4 + k], b0, b1, b2, b3);
          acc5 = dotRow(acc5, a[ra5 + k], b0, b1, b2, b3);
          acc6 = dotRow(acc6, a[ra6 + k], b0, b1, b2, b3);
          acc7 = dotRow(acc7, a[ra7 + k], b0, b1, b2, b3);
        }
      } else {
        acc0 = fmaRow(acc0, a[ra0 + k], b0, b1, b2, b3);
        if (TM > 1u) { acc1 = fmaRow(acc1, a[ra1 + k], b0, b1, b2, b3); }
        if (TM > 2u) {
          acc2 = fmaRow(acc2, a[ra2 + k], b0, b1, b2, b3);
          acc3 = fmaRow(acc3, a[ra3 + k], b0, b1, b2, b3);
        }
        if (TM > 4u) {
          acc4 = fmaRow(acc4, a[ra4 + k], b0, b1, b2, b3);
          acc5 = fmaRow(acc5, a[ra5 + k], b0, b1, b2, b3);
          acc6 = fmaRow(acc6, a[ra6 + k], b0, b1, b2, b3);
          acc7 = fmaRow(acc7, a[ra7 + k], b0, b1, b2, b3);
        }
      }
    }
  }

  store(row0, col0, acc0);
  if (TM > 1u) { store(row0 + 1u, col0, acc1); }
  if (TM > 2u) {
    store(row0 + 2u, col0, acc2);
    store(row0 + 3u, col0, acc3);
  }
  if (TM > 4u) {
    store(row0 + 4u, col0, acc4);
    store(row0 + 5u, col0, acc5);
    store(row0 + 6u, col0, acc6);
    store(row0 + 7u, col0, acc7);
  }
}
