// Test helper: the summed log-probs a model gives a generation's completion tokens (temperature 1).
import { uploadBatch, destroyBatch } from '../model/forward-batch';
import { computeLogprobs } from '../model/forward-logprobs';
import type { GpuModel } from '../model/model';

/** Sum of the learner's log-probs of a generation's completion tokens (temperature 1). */
export async function seqLogp(
  model: GpuModel,
  g: { promptTokens: number[]; completionTokens: number[] },
): Promise<number> {
  const seq = [...g.promptTokens, ...g.completionTokens];
  const S = seq.length;
  const P = g.promptTokens.length;
  const targets = new Uint32Array(S);
  const mask = new Float32Array(S);
  for (let t = 0; t + 1 < S; t++) {
    targets[t] = seq[t + 1];
    if (t + 1 >= P) mask[t] = 1;
  }
  const batch = uploadBatch(model.gpu, {
    batch: 1,
    seqLen: S,
    tokens: Uint32Array.from(seq),
    positions: Uint32Array.from(seq.map((_, i) => i)),
    valid: new Float32Array(S).fill(1),
    targets,
    mask,
  });
  const { logp } = await computeLogprobs(model, batch, 1);
  destroyBatch(batch);
  let sum = 0;
  for (let t = 0; t < S; t++) sum += mask[t] * logp[t];
  return sum;
}
