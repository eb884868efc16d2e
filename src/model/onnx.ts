// Public entry of the ONNX exporter (browser-safe): exportOnnx(params, layout, opts) → ModelProto bytes.
export { exportOnnx, onnxNames, ONNX_OPSET, ONNX_IR_VERSION, type OnnxExportOptions } from './onnx/export';
export { ONNX_QUANTS, type OnnxQuant } from './onnx/weights';
