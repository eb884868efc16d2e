// Weight-only quantization for the rollout path: int8 per-row, int8 block-32 and int4 block-32 (8 per u32),
// symmetric scales, CPU quantize/dequantize. The learner keeps fp32 masters; rollouts read these.
export type QuantFormat = 'int8-row' | 'int8-b32' | 'int4-b32';

export const QUANT_FORMATS: readonly QuantFormat[] = ['int8-row', 'int8-b32', 'int4-b32'];

export const QUANT_BLOCK = 32;

/**
 * A quantized [rows, cols] matrix (HF Linear layout [out, in]), ready to upload as two storage buffers.
 * Each row is padded with zero codes to a multiple of 32 columns, so every format has whole blocks and words:
 * row r's codes start at word r * wordsPerRow(format, cols). int8: 4 codes per u32, little-endian bytes, two's
 * complement in [-127, 127]. int4: 8 codes per u32, code j of a word in bits 4j..4j+3, stored as q + 8 with q in
 * [-7, 7]. Scales: int8-row has one per row; block formats have rows * ceil(cols / 32), row-major.
 * Dequantized value = q * scale.
 */
export interface QuantizedTensor {
  format: QuantFormat;
  rows: number;
  cols: number;
  data: Uint32Array;
  scales: Float32Array;
}

export function blocksPerRow(cols: number): number {
  return Math.ceil(cols / QUANT_BLOCK);
}

export function wordsPerRow(format: QuantFormat, cols: number): number {
  return (blocksPerRow(cols) * QUANT_BLOCK) / (format === 'int4-b32' ? 8 : 4);
}

export function scalesPerRow(format: QuantFormat, cols: number): number {
  return format === 'int8-row' ? 1 : blocksPerRow(cols);
}

/** Bytes of the quantized form (codes + scales), for memory and bandwidth reports. */
export function quantizedBytes(q: QuantizedTensor): number {
  return q.data.byteLength + q.scales.byteLength;
}

function qmax(format: QuantFormat): number {
  return format === 'int4-b32' ? 7 : 127;
}

/** Quantizes a row-major [rows, cols] fp32 matrix. Scale = max|w| / qmax over the row or 32-column block. */
export function quantize(w: Float32Array, rows: number, cols: number, format: QuantFormat): QuantizedTensor {
  if (w.length < rows * cols) throw new Error(`quantize: ${w.length} values for a ${rows}x${cols} matrix`);
  const wpr = wordsPerRow(format, cols);
  const spr = scalesPerRow(format, cols);
  const span = format === 'int8-row' ? Math.max(cols, 1) : QUANT_BLOCK;
  const data = new Uint32Array(rows * wpr);
  const scales = new Float32Array(rows * spr);
  const top = qmax(format);
  const int4 = format === 'int4-b32';
  for (let r = 0; r < rows; r++) {
    const row = w.subarray(r * cols, r * cols + cols);
    for (let s = 0; s < spr; s++) {
      const lo = s * span;
      const hi = Math.min(cols, lo + span);
      let amax = 0;
      for (let j = lo; j < hi; j++) {
        const v = Math.abs(row[j]);
        if (!Number.isFinite(v)) throw new Error(`quantize: non-finite weight at row ${r}, column ${j}`);
        if (v > amax) amax = v;
      }
      // Round the scale to f32 first so CPU and GPU dequantize with the same number.
      const scale = Math.fround(amax / top);
      scales[r * spr + s] = scale;
      const inv = scale > 0 ? 1 / scale : 0;
      for (let j = lo; j < hi; j++) {
        const q = Math.max(-top, Math.min(top, Math.round(row[j] * inv)));
        const wi = r * wpr + (int4 ? j >> 3 : j >> 2);
        if (int4) data[wi] |= (q + 8) << ((j & 7) * 4);
        else data[wi] |= (q & 0xff) << ((j & 3) * 8);
      }
    }
    // Zero codes in the padding: int4 stores 0 as 8, int8 as 0 (already).
    if (int4) {
      for (let j = cols; j < wpr * 8; j++) data[r * wpr + (j >> 3)] |= 8 << ((j & 7) * 4);
    }
  }
  return { format, rows, cols, data, scales };
}

/** The integer code of element (r, j). */
export function quantCode(q: QuantizedTensor, r: number, j: number): number {
  const wpr = wordsPerRow(q.format, q.cols);
  if (q.format === 'int4-b32') return ((q.data[r * wpr + (j >> 3)] >>> ((j & 7) * 4)) & 0xf) - 8;
  return ((q.data[r * wpr + (j >> 2)] >>> ((j & 3) * 8)) << 24) >> 24;
}

export function dequantize(q: QuantizedTensor): Float32Array {
  const { rows, cols } = q;
  const out = new Float32Array(rows * cols);
  const spr = scalesPerRow(q.format, cols);
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < cols; j++) {
      const s = q.scales[r * spr + (q.format === 'int8-row' ? 0 : Math.floor(j / QUANT_BLOCK))];
      out[r * cols + j] = Math.fround(quantCode(q, r, j) * s);
    }
  }
  return out;
}

/** max |w - dequant(quant(w))| / max |w|: the reconstruction error relative to the matrix's range. */
export function quantRelError(w: Float32Array, q: QuantizedTensor): number {
  const d = dequantize(q);
  let err = 0;
  let scale = 0;
  for (let i = 0; i < d.length; i++) {
    err = Math.max(err, Math.abs(d[i] - w[i]));
    scale = Math.max(scale, Math.abs(w[i]));
  }
  return err / Math.max(scale, 1e-30);
}
