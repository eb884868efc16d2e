// Batched KV-cache generation on `micro` with random weights: greedy tokens equal the float64 CPU reference's
// (full forward recomputed per step), draws do not depend on batch composition, stop tokens / stop strings end
// sequences, and tokens are read back at most once per 8 generated.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import { freshSeed, mulberry32 } from '../testing/random';
import { preset } from './config';
import { buildLayout } from './layout';
import { initParams } from './init';
import { GpuModel } from './model';
import { referenceForward } from './reference';
import { fp32Weights } from './decode-weights';
import { decodeFusion } from './decode-fused';
import { RolloutWeights } from './rollout-weights';
import { generate, type GenerateStats, type SamplerTokenizer } from './sampler';

const seed = freshSeed();
const rng = mulberry32(seed);
const config = preset('micro');
const layout = buildLayout(config);
// Large init std so logits are spread out and greedy argmaxes are not near-ties.
const params = initParams(layout, seed, { std: 0.35, biasStd: 0.1, normJitter: 0.1 });

function randomPrompt(len: number): number[] {
  return Array.from({ length: len }, () => 8 + Math.floor(rng() * (config.vocabSize - 8)));
}

/** Greedy continuation with the float64 reference; stops comparing a row at a near-tie (f32 may pick either). */
function referenceGreedy(prompt: number[], n: number): { tokens: number[]; logprobs: number[]; tieAt: number } {
  const p64 = Float64Array.from(params);
  const seq = [...prompt];
  const logprobs: number[] = [];
  let tieAt = n;
  for (let i = 0; i < n; i++) {
    const { logits } = referenceForward(layout, p64, { batch: 1, seqLen: seq.length, tokens: seq });
    const V = config.vocabSize;
    const row = logits.subarray((seq.length - 1) * V, seq.length * V);
    let best = 0;
    for (let j = 1; j < V; j++) if (row[j] > row[best]) best = j;
    let second = -Infinity;
    for (let j = 0; j < V; j++) if (j !== best) second = Math.max(second, row[j]);
    if (row[best] - second < 1e-4 && tieAt === n) tieAt = i;
    let z = 0;
    for (let j = 0; j < V; j++) z += Math.exp(row[j] - row[best]);
    logprobs.push(-Math.log(z));
    seq.push(best);
  }
  return { tokens: seq.slice(prompt.length), logprobs, tieAt };
}

/** A test tokenizer: each id decodes to one letter, so stop strings are easy to reason about. */
const letters: SamplerTokenizer = {
  decode: (ids) => Array.from(ids, (i) => String.fromCharCode(97 + (i % 26))).join(''),
  tokenToId: () => undefined,
};

describe(`sampler on micro (seed ${seed})`, () => {
  it('greedy decoding equals the float64 reference, with prompts of different lengths', async () => {
    const gpu = await sharedNodeGpu();
    const model = new GpuModel(gpu, layout, params);
    const prompts = [randomPrompt(5), randomPrompt(11), randomPrompt(1), randomPrompt(8)];
    const n = 12;
    const got = await generate(fp32Weights(model), prompts, {
      maxNewTokens: n,
      temperature: 0,
      seed: 1,
      stopTokenIds: [],
    });
    let compared = 0;
    let maxLp = 0;
    prompts.forEach((p, b) => {
      const want = referenceGreedy(p, n);
      expect(got[b].tokens.length).toBe(n);
      expect(got[b].finishReason).toBe('length');
      const upTo = want.tieAt + 1; // the tie step itself may go either way; the reference is only compared up to it
      expect(got[b].tokens.slice(0, upTo - 1)).toEqual(want.tokens.slice(0, upTo - 1));
      for (let i = 0; i < Math.min(upTo - 1, n); i++)
        maxLp = Math.max(maxLp, Math.abs(got[b].logprobs[i] - want.logprobs[i]));
      compared += Math.min(upTo - 1, n);
    });
    console.log(
      `greedy vs float64 reference: ${compared} tokens compared, max |logprob diff| ${maxLp.toExponential(2)}`,
    );
    expect(compared).toBeGreaterThan(prompts.length * n * 0.75);
    expect(maxLp).toBeLessThan(1e-3);
    model.destroy();
  });

  it('a sequence draws the same tokens whatever batch it is in (temperature 1, top-p)', async () => {
    const gpu = await sharedNodeGpu();
    const model = new GpuModel(gpu, layout, params);
    const w = fp32Weights(model);
    const A = randomPrompt(6);
    const B = randomPrompt(13);
    const C = randomPrompt(3);
    const opts = { maxNewTokens: 10, temperature: 1, topP: 0.95, seed: seed ^ 77, stopTokenIds: [] };
    const big = await generate(w, [A, B, C], { ...opts, seqIds: [100, 101, 102] });
    const small = await generate(w, [C, A], { ...opts, seqIds: [102, 100] });
    expect(small[0].tokens).toEqual(big[2].tokens);
    expect(small[1].tokens).toEqual(big[0].tokens);
    // The same tokens; their logprobs agree to f32 reduction order, which the batch's size changes (different tiles):
    // up to 4.9e-4 on a logprob of −5.25 seen (TEST_SEED=1397716467), so the bound is the one used against the
    // float64 reference above.
    for (let i = 0; i < 10; i++) expect(Math.abs(small[1].logprobs[i] - big[0].logprobs[i])).toBeLessThan(1e-3);
    // A different sequence id gives a different stream.
    const other = await generate(w, [A], { ...opts, seqIds: [999] });
    expect(other[0].tokens).not.toEqual(big[0].tokens);
    model.destroy();
  });

  it('dropping finished rows from the batch changes no sampled token and cuts the row-steps', async () => {
    const gpu = await sharedNodeGpu();
    const model = new GpuModel(gpu, layout, params);
    const w = fp32Weights(model);
    const prompts = Array.from({ length: 7 }, (_, i) => randomPrompt(2 + ((i * 5) % 9)));
    const base = { maxNewTokens: 32, temperature: 1, topP: 0.95, seed: seed ^ 5, chunk: 4 };
    const free = await generate(w, prompts, { ...base, stopTokenIds: [], compactAt: 1 });
    // Stop ids taken from early draws of two rows, so rows end at different times.
    const stopTokenIds = [free[0].tokens[2], free[3].tokens[9]];
    const run = async (compactAt: number) => {
      const stats: GenerateStats = { prefillMs: 0, decodeMs: 0, steps: 0, readbacks: 0 };
      const out = await generate(w, prompts, { ...base, stopTokenIds, compactAt, stats });
      return { out, stats };
    };
    const whole = await run(1);
    const compacted = await run(0.125);
    console.log(
      `compaction: lengths ${compacted.out.map((r) => r.tokens.length).join(',')}; row-steps ${compacted.stats.rowSteps} vs ${whole.stats.rowSteps} ` +
        `(${compacted.stats.compactions} compactions)`,
    );
    expect(whole.stats.compactions).toBe(0);
    expect(compacted.stats.compactions).toBeGreaterThan(0);
    expect(compacted.stats.rowSteps).toBeLessThan(whole.stats.rowSteps ?? 0);
    for (let b = 0; b < prompts.length; b++) {
      expect(compacted.out[b].tokens).toEqual(whole.out[b].tokens);
      expect(compacted.out[b].finishReason).toBe(whole.out[b].finishReason);
      compacted.out[b].logprobs.forEach((lp, i) => expect(Math.abs(lp - whole.out[b].logprobs[i])).toBeLessThan(1e-4));
    }
    expect(compacted.out.some((r) => r.finishReason === 'stop')).toBe(true);
    expect(compacted.out.some((r) => r.tokens.length > 12)).toBe(true);
    model.destroy();
  });

  it('repeated prompts are prefilled once and sample exactly what a row-by-row prefill samples', async () => {
    const gpu = await sharedNodeGpu();
    const model = new GpuModel(gpu, layout, params);
    const w = fp32Weights(model);
    const [A, B, C] = [randomPrompt(5), randomPrompt(9), randomPrompt(3)];
    const prompts = [A, A, A, B, C, C, B];
    const base = { maxNewTokens: 12, temperature: 1, topP: 0.95, seed: seed ^ 9, stopTokenIds: [] };
    const run = async (dedupePrompts: boolean) => {
      const stats: GenerateStats = { prefillMs: 0, decodeMs: 0, steps: 0, readbacks: 0 };
      return { out: await generate(w, prompts, { ...base, dedupePrompts, stats }), stats };
    };
    const once = await run(true);
    const every = await run(false);
    console.log(`prefill rows ${once.stats.prefillRows} vs ${every.stats.prefillRows}`);
    expect(once.stats.prefillRows).toBe(3);
    expect(every.stats.prefillRows).toBe(prompts.length);
    for (let b = 0; b < prompts.length; b++) {
      expect(once.out[b].tokens).toEqual(every.out[b].tokens);
      once.out[b].logprobs.forEach((lp, i) => expect(Math.abs(lp - every.out[b].logprobs[i])).toBeLessThan(1e-4));
    }
    // Repeats of one prompt still draw their own streams.
    expect(once.out[1].tokens).not.toEqual(once.out[0].tokens);
    model.destroy();
  });

  it('fused decode (stacked q|k|v and gate|up weights) samples exactly what the unfused layers sample, in fewer dispatches', async () => {
    const gpu = await sharedNodeGpu();
    const model = new GpuModel(gpu, layout, params);
    // The int8 rollout copy stacks every layer's weights (dequantized on CPU adapters); the learner's flat buffer
    // stacks gate|up only (the q/k/v biases sit between q, k and v).
    const rollout = new RolloutWeights(model, 'int8-b32', true);
    const L = layout.layers[0];
    expect(rollout.stacked([L.q, L.k, L.v])).toBeDefined();
    const prompts = [randomPrompt(5), randomPrompt(5), randomPrompt(12), randomPrompt(2)];
    const opts = { maxNewTokens: 14, temperature: 1, topP: 0.95, seed: seed ^ 21, stopTokenIds: [] };
    for (const w of [rollout, fp32Weights(model)]) {
      const run = async (on: boolean) => {
        decodeFusion.enabled = on;
        const before = gpu.dispatches;
        try {
          const out = await generate(w, prompts, opts);
          return { out, dispatches: gpu.dispatches - before };
        } finally {
          decodeFusion.enabled = true;
        }
      };
      const fused = await run(true);
      const plain = await run(false);
      console.log(`${w.label}: fused decode ${fused.dispatches} dispatches, unfused ${plain.dispatches}`);
      expect(fused.dispatches).toBeLessThan(plain.dispatches);
      fused.out.forEach((r, b) => {
        expect(r.tokens).toEqual(plain.out[b].tokens);
        expect(r.logprobs).toEqual(plain.out[b].logprobs);
      });
    }
    rollout.destroy();
    model.destroy();
  });

  it('stops on a stop token and on stop strings; reads back at most once per 8 tokens', async () => {
    const gpu = await sharedNodeGpu();
    const model = new GpuModel(gpu, layout, params);
    const w = fp32Weights(model);
    const prompts = [randomPrompt(4), randomPrompt(7), randomPrompt(2)];
    const free = await generate(w, prompts, { maxNewTokens: 20, temperature: 0, seed: 0, stopTokenIds: [] });
    // Stop token: the greedy path's 6th token of row 1 ends that row at its first occurrence.
    const stopTok = free[1].tokens[5];
    const first = free[1].tokens.indexOf(stopTok);
    const stopped = await generate(w, prompts, { maxNewTokens: 20, temperature: 0, seed: 0, stopTokenIds: [stopTok] });
    expect(stopped[1].tokens).toEqual(free[1].tokens.slice(0, first + 1));
    expect(stopped[1].finishReason).toBe('stop');
    // Stop strings, counted read-backs.
    const origRead = gpu.readBytes.bind(gpu);
    let reads = 0;
    gpu.readBytes = (...args: Parameters<typeof gpu.readBytes>) => {
      reads++;
      return origRead(...args);
    };
    const stops = ['a', 'b', 'c'];
    const n = 40;
    try {
      const out = await generate(w, prompts, {
        maxNewTokens: n,
        temperature: 1,
        seed: seed,
        stopStrings: stops,
        tokenizer: letters,
        stopTokenIds: [],
      });
      for (const r of out) {
        expect(r.tokens.length).toBe(r.logprobs.length);
        for (const s of stops) expect(r.text.includes(s)).toBe(false);
        if (r.finishReason === 'stop') {
          const full = letters.decode(r.tokens);
          expect(stops.includes(full[full.length - 1])).toBe(true);
          expect(r.text).toBe(full.slice(0, -1));
        } else {
          expect(r.tokens.length).toBe(n);
        }
      }
      console.log(
        `stop strings: finish ${out.map((r) => `${r.finishReason}@${r.tokens.length}`).join(' ')}, ${reads} read-backs`,
      );
    } finally {
      gpu.readBytes = origRead;
    }
    expect(reads).toBeLessThanOrEqual(Math.ceil(n / 8));
    model.destroy();
  });

  it('rejects prompt ids outside the vocabulary', async () => {
    const gpu = await sharedNodeGpu();
    const model = new GpuModel(gpu, layout, params);
    await expect(
      generate(
        fp32Weights(model),
        [
          [1, 2],
          [3, config.vocabSize],
        ],
        { maxNewTokens: 2, temperature: 0, seed: 0 },
      ),
    ).rejects.toThrow(/prompt 1 has token 512/);
    model.destroy();
  });
});
