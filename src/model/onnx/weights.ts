// Linear-layer weights as ONNX initializers: fp32 transposed to MatMul's [in, out], or int8 codes with a
// DequantizeLinear (per output column, i.e. our per-row int8) or a blocked Cast·Mul (32-wide blocks along `in`;
// int4-b32 codes in [-7, 7] ride the same path in int8 storage, since opset 17 has no 4-bit type).
import type { TensorSpec } from '../layout';
import { view } from '../layout';
import { QUANT_BLOCK, QUANT_FORMATS, quantCode, quantize, scalesPerRow, type QuantFormat } from '../../gpu/quant';
import type { GraphBuilder } from './graph';
import { DT } from './schema';

/**
 * int8-row: one scale per output row (DequantizeLinear axis=1); int8-b32 / int4-b32: one per 32 inputs (Cast, Mul,
 * Reshape). Same names as quant.ts's formats, so a quantized checkpoint exports with its own codes.
 */
export type OnnxQuant = QuantFormat;

export const ONNX_QUANTS: readonly OnnxQuant[] = QUANT_FORMATS;

/** HF [out, in] row-major → [in, out] row-major. */
export function transposeF32(w: Float32Array, rows: number, cols: number): Float32Array {
  const t = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) t[c * rows + r] = w[r * cols + c];
  return t;
}

/**
 * Adds the [in, out] weight of a Linear layer (HF [out, in]) to the graph and returns the value name MatMul reads.
 * Quantized weights use exactly quant.ts's codes and scales, so the ONNX model computes with the same dequantized
 * numbers as our engine loading an int8 checkpoint (q · scale rounded to f32, both ways).
 */
export function linearWeight(g: GraphBuilder, params: Float32Array, t: TensorSpec, quant?: OnnxQuant): string {
  const [rows, cols] = t.shape; // out, in
  const w = view(params, t);
  if (!quant) return g.init(t.name, DT.FLOAT, [cols, rows], transposeF32(w, rows, cols));
  const q = quantize(w, rows, cols, quant);
  if (quant === 'int8-row') {
    const codes = new Int8Array(cols * rows);
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) codes[c * rows + r] = quantCode(q, r, c);
    const data = g.init(`${t.name}.qdata`, DT.INT8, [cols, rows], codes);
    const scale = g.init(`${t.name}.qscale`, DT.FLOAT, [rows], q.scales);
    const zero = g.init(`${t.name}.qzero`, DT.INT8, [rows], new Int8Array(rows));
    return g.op('DequantizeLinear', [data, scale, zero], { axis: 1 }, `${t.name}.dq`);
  }
  // Blocked: codes padded to whole 32-blocks along `in`, [nb, 32, out] · scales [nb, 1, out], then cut to [in, out].
  const nb = scalesPerRow(quant, cols);
  const padIn = nb * QUANT_BLOCK;
  const codes = new Int8Array(padIn * rows);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) codes[c * rows + r] = quantCode(q, r, c);
  const scales = new Float32Array(nb * rows);
  for (let r = 0; r < rows; r++) for (let b = 0; b < nb; b++) scales[b * rows + r] = q.scales[r * nb + b];
  const data = g.init(`${t.name}.qdata`, DT.INT8, [nb, QUANT_BLOCK, rows], codes);
  const scale = g.init(`${t.name}.qscale`, DT.FLOAT, [nb, 1, rows], scales);
  const f = g.op('Cast', [data], { to: DT.FLOAT }, `${t.name}.codes`);
  const blocks = g.op('Mul', [f, scale], {}, `${t.name}.blocks`);
  const full = g.op('Reshape', [blocks, g.i64(`${t.name}.shape`, [padIn, rows])], {}, `${t.name}.padded`);
  if (padIn === cols) return full;
  return g.op(
    'Slice',
    [full, g.i64('zero1', [0]), g.i64(`${t.name}.in`, [cols]), g.i64('axis0', [0])],
    {},
    `${t.name}.dq`,
  );
}
