// The quantization format moved to src/gpu/quant.ts (the GPU quantizer and qmatmul own it; gpu must not import model).
// This re-export only keeps imports from branches written before the move resolving; new code imports ../gpu/quant.
export * from '../gpu/quant';
