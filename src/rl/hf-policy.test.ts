// A Hugging Face model (transformers' fixture) as a LoRA policy: samples on the chat prompt stop at the template's
// eos, a GRPO update with micro-batch accumulation moves only the adapters and in the advantage's direction, and
// the saved PEFT files read back to the trained adapters.
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import type { Gpu } from '../gpu/runtime';
import { importHfModel } from '../model/hf/import';
import { loadHfTokenizer } from '../model/hf/tokenizer';
import { dirSource } from '../model/hf/source-node';
import { FIXTURE_ROOT } from '../model/hf/fixtures-node';
import { LORA_TARGETS } from '../model/hf/lora';
import { importPeftAdapter } from '../model/hf/export';
import { seqLogp } from '../testing/seq-logp';
import { PRESETS } from './config';
import { HfLoraPolicy } from './hf-policy';
import { loadCurriculum } from './lab-setup';
import type { GrpoSettings } from './policy';

let gpu: Gpu;
beforeAll(async () => {
  gpu = await sharedNodeGpu();
}, 300_000);

async function makePolicy(name: string, seed: number): Promise<HfLoraPolicy> {
  const src = dirSource(`${FIXTURE_ROOT}qwen2-untied-mqa-f32`);
  return new HfLoraPolicy(gpu, {
    name,
    checkpoint: await importHfModel(src),
    tokenizer: await loadHfTokenizer(src),
    lora: { rank: 4, alpha: 8, targets: [...LORA_TARGETS] },
    seed,
    rolloutQuant: 'none',
    maxPromptTokens: 200,
    microBatch: 2,
    baseModel: 'qwen2-untied-mqa-f32',
  });
}

describe('HfLoraPolicy on the transformers fixture', { timeout: 300_000 }, () => {
  it('GRPO moves the adapters in the advantage direction, the base stays; PEFT files hold the trained adapters', async () => {
    const seed = (Date.now() ^ (Math.random() * 2 ** 31)) >>> 0;
    const policy = await makePolicy('hf-dir', seed);
    const problems = loadCurriculum(PRESETS.micro.tasks.families).train.slice(0, 3);
    const prompts = problems.map((p) => policy.promptFormat.coderPrompt(p));
    expect(prompts[0]).toMatch(/^<\|im_start\|>system\nYou are a helpful code completion assistant\.<\|im_end\|>/);
    const gens = (
      await policy.generate([...prompts, ...prompts], { maxNewTokens: 12, temperature: 1, topP: 1, seed })
    ).filter((g) => g.completionTokens.length >= 2);
    expect(gens.length, `seed ${seed}`).toBeGreaterThanOrEqual(4);
    const adv = gens.map((_, i) => (i % 2 === 0 ? 1 : -1));
    const before = await Promise.all(gens.map((g) => seqLogp(policy.model, g)));
    const base = await policy.ref.readParams();
    const cfg = PRESETS.micro;
    const s: GrpoSettings = {
      lr: 1e-3,
      grpo: { ...cfg.grpo, beta: 0.001 },
      optim: { ...cfg.optim, weight_decay: 0 },
      rollout: { max_completion_length: 12, temperature: 1 },
    };
    const items = gens.map((g, i) => ({
      promptTokens: g.promptTokens,
      completionTokens: g.completionTokens,
      rolloutLogprobs: g.rolloutLogprobs,
      advantage: adv[i],
    }));
    const stats = await policy.grpoUpdate(items, s);
    expect(stats.skipped).toBe(false);
    expect(stats.gradNorm).toBeGreaterThan(0);
    expect(stats.tokens).toBe(gens.reduce((a, g) => a + g.completionTokens.length, 0));
    const after = await Promise.all(gens.map((g) => seqLogp(policy.model, g)));
    const objective = after.reduce((a, x, i) => a + adv[i] * (x - before[i]), 0);
    console.log(
      `HF LoRA GRPO (seed ${seed}): Σ A·Δlog p = ${objective.toExponential(3)}, grad norm ${stats.gradNorm.toExponential(3)}`,
    );
    expect(objective, `seed ${seed}`).toBeGreaterThan(0);
    // Only the adapters trained: the base (the KL reference) is bit-identical, the learner's merged weights moved.
    expect(await gpu.readF32(policy.learner.base, base.length)).toEqual(base);
    expect(await policy.ref.readParams()).toEqual(base);
    const trained = await policy.parameters();
    const anyB = [...trained].find(([k]) => k.endsWith('lora_B.weight'));
    expect(anyB && anyB[1].some((x) => x !== 0)).toBe(true);
    const files = await policy.save();
    const back = importPeftAdapter(
      policy.model.layout,
      new TextDecoder().decode(files['adapter_config.json']),
      files['adapter_model.safetensors'],
    );
    for (const [name, p] of back.pairs) {
      const stem = name.replace(/\.weight$/, '');
      expect(Float32Array.from(p.A)).toEqual(trained.get(`${stem}.lora_A.weight`));
      expect(Float32Array.from(p.B)).toEqual(trained.get(`${stem}.lora_B.weight`));
    }
    policy.destroy();
  });
});
