// Kernel variants and tile sizes one GPU context runs with (`gpu.tuning`): benches and tests pin a variant on the
// context they use instead of flipping module globals that every context in the process shares.

/** rmsnorm: 'rows' = one thread per row, no barriers; 'workgroup' = one workgroup per row with a tree reduction. */
export type RowImpl = 'rows' | 'workgroup';
export type DecodeKernel = 'workgroup' | 'thread';
export type MatmulKernel = 'fast' | 'general' | 'tiled' | 'naive';

export interface GpuTuning {
  /**
   * The matmul kernel 'auto' means. SwiftShader (CPU) wants 'fast', with 'general' for odd shapes: 'tiled' pays about
   * 1 ms per workgroup there in barriers and shared-memory staging (measured: K = 1, 192 workgroups, 188 ms against
   * 5 ms for 'general'). On a discrete GPU the engine may set 'tiled' after benchmarking both.
   */
  matmul: MatmulKernel;
  /**
   * quad: use the quad kernel when it applies (benchmarks switch it off to time the plain matmul path).
   * minRows: smallest M for the quad kernel. kChunk: Aᵀ·B (weight gradients, K = tokens) runs as K-chunks of this
   * many rows accumulating in turn, on CPU adapters only (0 = never): at T = 3200 a chunk of 512 is 1.4-2x faster
   * than one pass there (the slices stay in cache), e.g. lm_head dW 575 -> 282 CPU-ms.
   */
  linear: { quad: boolean; minRows: number; kChunk: number };
  /** SwiftShader runs workgroup barriers very slowly (~40x here), hence 'rows'; a real GPU may prefer 'workgroup'. */
  rmsnorm: RowImpl;
  /** Invocations per workgroup of the one-workgroup-per-row reductions (logprobs, xent, grpo_loss); 0 = by adapter. */
  rowReduceWorkgroup: number;
  /**
   * rows: rows per invocation (0 = pick by adapter). unrolled: the passes run the generated kernels of
   * attention-unrolled*.ts (named registers instead of run-time-indexed arrays); 'auto' = on software adapters, where
   * it was measured. maskQueries: the model's attention skips query rows its batch marks invalid.
   */
  attention: { rows: number; unrolled: boolean | 'auto'; maskQueries: boolean };
  /** The decode-attention kernel; 'auto' = 'thread' on software adapters, 'workgroup' elsewhere. */
  attentionDecode: DecodeKernel | 'auto';
  /**
   * The SFT and GRPO heads (and reference log-probs asked for with rows: 'mask') run on the loss rows only, when that
   * saves at least 10 % of the rows. Off = every row, the old path (tests compare the two).
   */
  headRows: boolean;
  /**
   * Run the variants chosen for a CPU adapter (softwareAdapter: 16-wide row reductions, unrolled attention, …);
   * 'auto' = when the adapter is one (a fallback adapter, or SwiftShader / lavapipe by name). The pipeline walk sets
   * both to validate every variant on the stack it runs on.
   */
  software: boolean | 'auto';
}

export function defaultTuning(): GpuTuning {
  return {
    matmul: 'fast',
    linear: { quad: true, minRows: 32, kChunk: 512 },
    rmsnorm: 'rows',
    rowReduceWorkgroup: 0,
    attention: { rows: 0, unrolled: 'auto', maskQueries: true },
    attentionDecode: 'auto',
    headRows: true,
    software: 'auto',
  };
}
