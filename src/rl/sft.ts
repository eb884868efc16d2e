// Supervised fine-tuning (warm-start) of a GpuModel on prompt → completion pairs: loss only on completion tokens.
import type { GpuModel } from '../model/model';
import { uploadBatch, destroyBatch } from '../model/forward-batch';
import { trainStep } from '../model/backward-step';
import type { BpeTokenizer } from '../model/tokenizer';
import { SPECIAL_TOKENS } from '../model/special-tokens';
import { Rng } from './rng';

export interface SftExample {
  prompt: string;
  completion: string;
}

export interface SftOptions {
  steps: number;
  batchSize: number;
  lr: number;
  /** Linear warm-up steps, then cosine decay to lr·minLrFrac. */
  warmup?: number;
  minLrFrac?: number;
  weightDecay?: number;
  maxGradNorm?: number;
  seed: number;
  /** Sequences longer than this keep the end of the prompt and the start of the completion. */
  maxSeqLen?: number;
  onStep?: (step: number, loss: number, lr: number) => void;
}

export interface EncodedExample {
  prompt: number[];
  completion: number[];
}

export function encodeExamples(tok: BpeTokenizer, examples: SftExample[]): EncodedExample[] {
  return examples.map((e) => ({ prompt: tok.encode(e.prompt), completion: tok.encode(e.completion) }));
}

export function lrAt(step: number, o: SftOptions): number {
  const warm = o.warmup ?? Math.min(50, Math.floor(o.steps / 10));
  if (step < warm) return (o.lr * (step + 1)) / warm;
  const frac = (step - warm) / Math.max(1, o.steps - warm);
  const min = o.minLrFrac ?? 0.1;
  return o.lr * (min + (1 - min) * 0.5 * (1 + Math.cos(Math.PI * Math.min(1, frac))));
}

/** Runs `steps` SFT steps of `batchSize` random examples; returns the per-step losses. */
export async function sftTrain(
  model: GpuModel,
  tok: BpeTokenizer,
  data: EncodedExample[],
  o: SftOptions,
): Promise<number[]> {
  if (!data.length) throw new Error('sftTrain: no examples');
  const pad = tok.requireId(SPECIAL_TOKENS.pad);
  const maxLen = Math.min(o.maxSeqLen ?? model.config.maxSeqLen, model.config.maxSeqLen);
  const rng = new Rng(o.seed);
  const losses: number[] = [];
  for (let step = 0; step < o.steps; step++) {
    const picks = Array.from({ length: o.batchSize }, () => data[rng.int(data.length)]);
    const seqs = picks.map((e) => {
      const room = Math.max(1, maxLen - e.completion.length);
      const prompt = e.prompt.length > room ? e.prompt.slice(e.prompt.length - room) : e.prompt;
      return { ids: [...prompt, ...e.completion].slice(0, maxLen), P: prompt.length };
    });
    const S = Math.max(...seqs.map((s) => s.ids.length));
    const B = seqs.length;
    const T = B * S;
    const tokens = new Uint32Array(T).fill(pad);
    const targets = new Uint32Array(T).fill(pad);
    const mask = new Float32Array(T);
    const valid = new Float32Array(T);
    const positions = new Uint32Array(T);
    seqs.forEach((s, b) => {
      for (let t = 0; t < S; t++) {
        positions[b * S + t] = t;
        if (t < s.ids.length) {
          tokens[b * S + t] = s.ids[t];
          valid[b * S + t] = 1;
        }
        if (t + 1 < s.ids.length) {
          targets[b * S + t] = s.ids[t + 1];
          if (t + 1 >= s.P) mask[b * S + t] = 1;
        }
      }
    });
    const batch = uploadBatch(model.gpu, { batch: B, seqLen: S, tokens, positions, valid, targets, mask }, 'sft');
    const lr = lrAt(step, o);
    const r = await trainStep(
      model,
      batch,
      { kind: 'sft' },
      {
        adamw: { lr, beta1: 0.9, beta2: 0.98, eps: 1e-8, weightDecay: o.weightDecay ?? 0.01 },
        maxGradNorm: o.maxGradNorm ?? 1,
      },
    );
    destroyBatch(batch);
    losses.push(r.loss);
    o.onStep?.(step, r.loss, lr);
  }
  return losses;
}
