// CPU emulation of the f16 compute path's forward (f16-weights.ts): the float64 reference model with every Linear
// replaced by linear_f16.wgsl's numerics (f16 weights, input rounded to f16, exact products, output rounded to f16),
// and everything else as the f32 path computes it. Greedy decoding on top, with the top-1 − top-2 margins.
import { linearF16Ref } from '../gpu/kernels/linear-f16';
import { f16Round } from '../gpu/f16';
import type { Layout } from './layout';
import { referenceForward, type BatchInput, type LinearOp, type RefForward } from './reference';

// f16 copies of weight views already rounded, by the parameter array they view and their place in it (a greedy decode
// asks for the same views at every step).
const rounded = new WeakMap<ArrayBufferLike, Map<string, Float64Array>>();

function f16Weights(w: ArrayLike<number>, n: number): Float64Array {
  const round = () => Float64Array.from({ length: n }, (_, i) => f16Round(w[i]));
  if (!(w instanceof Float64Array)) return round();
  let cache = rounded.get(w.buffer);
  if (!cache) rounded.set(w.buffer, (cache = new Map()));
  const key = `${w.byteOffset}:${n}`;
  let wh = cache.get(key);
  if (!wh) cache.set(key, (wh = round()));
  return wh;
}

/** linear_f16.wgsl on the CPU: W rounded to f16 here (the GPU copy holds exactly these values). */
export const f16LinearOp: LinearOp = (x, w, b, T, nIn, nOut) =>
  linearF16Ref(x, f16Weights(w, nOut * nIn), T, nOut, nIn, b);

/** Logits [T, V] of the f16 path, emulated. */
export function f16ReferenceForward(layout: Layout, params: Float64Array, input: BatchInput): RefForward {
  return referenceForward(layout, params, input, f16LinearOp);
}

export interface GreedyStep {
  token: number;
  /** Top-1 minus top-2 logit of this step's distribution. */
  margin: number;
  /** max |logit| of the step's row (the scale error bounds are relative to). */
  scale: number;
}

/** Greedy continuation of one prompt by full forwards (no cache), with each step's margin. */
export function greedyReference(
  layout: Layout,
  params: Float64Array,
  prompt: number[],
  steps: number,
  op?: LinearOp,
): GreedyStep[] {
  const V = layout.config.vocabSize;
  const seq = [...prompt];
  const out: GreedyStep[] = [];
  for (let s = 0; s < steps; s++) {
    const { logits } = referenceForward(layout, params, { batch: 1, seqLen: seq.length, tokens: seq }, op);
    const row = logits.subarray((seq.length - 1) * V, seq.length * V);
    let best = 0;
    for (let i = 1; i < V; i++) if (row[i] > row[best]) best = i;
    let second = -Infinity;
    let scale = 0;
    for (let i = 0; i < V; i++) {
      if (i !== best && row[i] > second) second = row[i];
      scale = Math.max(scale, Math.abs(row[i]));
    }
    out.push({ token: best, margin: row[best] - second, scale });
    seq.push(best);
  }
  return out;
}
