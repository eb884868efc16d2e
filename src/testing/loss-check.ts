// Comparisons shared by the loss-kernel tests (GRPO, KTO): GPU statistics and gradients against a float64 reference,
// and the reference's analytic gradient against finite differences at the sampled tokens; plus their common setup.
import type { Gpu } from '../gpu/runtime';
import { maxAbsDiff } from './random';

/** Where a position of a random loss-test sequence lies. */
export type TokenPart = 'prompt' | 'completion' | 'pad';

/**
 * B sequences of S tokens with a random prompt, completion and pad part; the last has no completion tokens at all.
 * `token` is called for every position in order (the caller's own draws interleave with the layout's, so one seed
 * gives one data set); returns the completion mask.
 */
export function randomSequences(
  rng: () => number,
  shape: { B: number; S: number },
  token: (t: number, s: number, part: TokenPart) => void,
): Float32Array {
  const mask = new Float32Array(shape.B * shape.S);
  for (let b = 0; b < shape.B; b++) {
    const prompt = Math.floor(rng() * shape.S * 0.4);
    const len = b === shape.B - 1 ? 0 : 2 + Math.floor(rng() * (shape.S - prompt - 2));
    for (let s = 0; s < shape.S; s++) {
      const t = b * shape.S + s;
      const part: TokenPart = s < prompt ? 'prompt' : s < prompt + len ? 'completion' : 'pad';
      mask[t] = part === 'completion' ? 1 : 0;
      token(t, s, part);
    }
  }
  return mask;
}

/** Each input array as a GPU buffer (null stays null: an optional input the kernel does without). */
export type LossBuffers<X> = { [K in keyof X]: X[K] extends Float32Array ? GPUBuffer : GPUBuffer | null };

/**
 * Uploads a loss kernel's inputs, runs it into fresh dlogp [T] and stats [8] buffers, reads both back and frees
 * every buffer.
 */
export async function runLossKernel<X extends Record<string, Float32Array | null>, Stats>(
  gpu: Gpu,
  T: number,
  x: X,
  launch: (inputs: LossBuffers<X>, dlogp: GPUBuffer, stats: GPUBuffer) => void,
  decode: (raw: Float32Array) => Stats,
): Promise<{ stats: Stats; dlogp: Float32Array }> {
  const entries = Object.entries(x).map(([k, a]) => [k, a ? gpu.buffer(k, a) : null]);
  const inputs = Object.fromEntries(entries) as LossBuffers<X>;
  const dlogp = gpu.buffer('dlogp', T * 4);
  const stats = gpu.buffer('stats', 8 * 4);
  launch(inputs, dlogp, stats);
  const out = { stats: decode(await gpu.readF32(stats, 8)), dlogp: await gpu.readF32(dlogp, T) };
  [dlogp, stats, ...Object.values<GPUBuffer | null>(inputs)].forEach((b) => b?.destroy());
  return out;
}

/** Runs `f` with the row-reduction workgroup forced to `size` (a real GPU's), restoring the default after. */
export function withRowReduceWorkgroup<R>(gpu: Gpu, size: number, f: () => Promise<R>): Promise<R> {
  gpu.tuning.rowReduceWorkgroup = size;
  return f().finally(() => (gpu.tuning.rowReduceWorkgroup = 0));
}

/**
 * float64 central differences of `loss` with step h at a sample of the masked tokens (~150 of them keep the O(T²)
 * check fast; a null mask = every position), NaN elsewhere. With `skipKinks`, a token whose one-sided slopes disagree is NaN too: its ratio sits
 * within h of a clip bound, where the loss has no derivative.
 */
export function sampledCentralDiffs(
  logp: ArrayLike<number>,
  mask: ArrayLike<number> | null,
  loss: (logp: number[]) => number,
  h: number,
  skipKinks = false,
): Float64Array {
  const lp = Array.from(logp, Number);
  const stride = Math.max(1, Math.floor(lp.length / 150));
  const f0 = skipKinks ? loss(lp) : 0;
  return Float64Array.from(lp, (_, t) => {
    if (mask?.[t] === 0 || t % stride !== 0) return NaN;
    const p = lp.slice();
    const m = lp.slice();
    p[t] += h;
    m[t] -= h;
    const [fp, fm] = [loss(p), loss(m)];
    if (skipKinks && Math.abs(fp - f0 - (f0 - fm)) / h > 1e-3 * Math.max(1, Math.abs((fp - fm) / (2 * h)))) return NaN;
    return (fp - fm) / (2 * h);
  });
}

/** Largest |got − want| / max(1, |want|) over the named statistics. */
export function statsRelDiff<K extends string>(
  got: Record<K, number>,
  want: Record<K, number>,
  keys: readonly K[],
): number {
  return Math.max(...keys.map((s) => Math.abs(got[s] - want[s]) / Math.max(1, Math.abs(want[s]))));
}

/**
 * The GPU gradient and the finite differences (NaN = token not sampled or skipped) against the analytic reference
 * gradient, each as max abs diff over the reference's largest |value|.
 */
export function gradientDiffs(
  gpu: ArrayLike<number>,
  fd: Float64Array,
  want: Float64Array,
): { gradScale: number; gradDiff: number; fdDiff: number; sampled: number } {
  const gradScale = Math.max(...want.map(Math.abs));
  const sampled = [...fd.keys()].filter((t) => !Number.isNaN(fd[t]));
  const fdDiff =
    maxAbsDiff(
      sampled.map((t) => fd[t]),
      sampled.map((t) => want[t]),
    ) / gradScale;
  return { gradScale, gradDiff: maxAbsDiff(gpu, want) / gradScale, fdDiff, sampled: sampled.length };
}
