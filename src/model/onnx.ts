// Public entry of the ONNX exporter (browser-safe): exportOnnx(params, layout, opts) → ModelProto bytes.
//
// For a "Download ONNX" button: `const bytes = await exportGpuModelOnnx(model, { quant: 'int8-row' })`, then a Blob
// of type application/octet-stream named e.g. coder.onnx; tokenizer.json (from the checkpoint) maps text to input_ids.
import type { GpuModel } from './model';
import { exportOnnx, type OnnxExportOptions } from './onnx/export';

export { exportOnnx, onnxNames, ONNX_OPSET, ONNX_IR_VERSION, type OnnxExportOptions } from './onnx/export';
export { ONNX_QUANTS, type OnnxQuant } from './onnx/weights';

/** Reads a GPU model's current fp32 parameters back and exports them. */
export async function exportGpuModelOnnx(model: GpuModel, opts: OnnxExportOptions = {}): Promise<Uint8Array> {
  return exportOnnx(await model.readParams(), model.layout, opts);
}
