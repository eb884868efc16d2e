// IEEE binary16 on the CPU: f32 → f16 bits (round to nearest even), f16 bits → value, and the round trip that the
// f16 kernels apply wherever they store a value (Node 20 has no Math.f16round). Shared by the f16 kernels' CPU
// emulation, the safetensors reader (F16 tensors) and the Hugging Face exporter (f16 weights).

// One scratch word for the scalar conversions (a fresh typed array per value made exporting 0.5B weights take minutes).
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/**
 * f32 → IEEE half bits, round to nearest even, overflow to ±inf, subnormals kept, NaN stays NaN. A float64 argument
 * is rounded to f32 first: that is what a GPU does when an f32 accumulator is converted to f16.
 */
export function f16Bits(x: number): number {
  F32[0] = x;
  const u = U32[0];
  const sign = (u >>> 16) & 0x8000;
  const exp = (u >>> 23) & 0xff;
  let mant = u & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    let h = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    if (rest > half || (rest === half && h & 1)) h++;
    return sign | h;
  }
  let h = mant >>> 13;
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && h & 1)) {
    h++;
    if (h === 0x400) {
      h = 0;
      e++;
      if (e >= 0x1f) return sign | 0x7c00;
    }
  }
  return sign | (e << 10) | h;
}

/** The value of IEEE half bits (exact in f32 and f64). */
export function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

/** x rounded to the nearest f16 (ties to even, via f32 as above), as a number: Math.f16round for Node 20. */
export function f16Round(x: number): number {
  return halfToFloat(f16Bits(x));
}

/** Half bits of every element. */
export function toHalves(a: ArrayLike<number>): Uint16Array {
  const out = new Uint16Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = f16Bits(a[i]);
  return out;
}

/** Values of half bits, as f32. */
export function fromHalves(h: Uint16Array): Float32Array {
  const out = new Float32Array(h.length);
  for (let i = 0; i < h.length; i++) out[i] = halfToFloat(h[i]);
  return out;
}

/** f16's unit roundoff u = 2^-11 (half its machine epsilon 2^-10): |f16Round(x) − x| ≤ u·|x| in the normal range. */
export const F16_U = 2 ** -11;
/** The largest finite half; WGSL leaves the f16 conversion of anything larger indeterminate (here: ±inf). */
export const F16_MAX = 65504;
