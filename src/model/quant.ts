// The quantization format moved to src/gpu/quant.ts (the GPU quantizer and qmatmul own it; gpu must not import model).
// This re-export keeps src/model/hf and src/model/onnx (`../quant`) resolving until they import ../../gpu/quant.
export * from '../gpu/quant';
