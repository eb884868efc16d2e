// A Hugging Face model (transformers' fixture) as a LoRA policy: samples on the chat prompt stop at the template's
// eos, a GRPO update with micro-batch accumulation moves only the adapters and in the advantage's direction, and
// the saved PEFT files read back to the trained adapters; a policy restored from its saved files (adapters + AdamW
// state) takes the same next step as one that was never interrupted; a step with per-layer recompute and per-micro-batch
// progress hooks (a UI's pause point) equals one without.
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
import { prepareGrpoMicroBatches, type GrpoPolicyParts } from './grpo-batches';
import { GpuModel } from '../model/model';
import { LoraLearner } from '../model/hf/lora-learner';
import type { RolloutQuant } from '../model/rollout-weights';
import { loadCurriculum } from '../run/lab-setup';
import type { GrpoItem, GrpoSettings, PolicyFiles } from './policy';

let gpu: Gpu;
beforeAll(async () => {
  gpu = await sharedNodeGpu();
}, 300_000);

async function makePolicy(
  name: string,
  seed: number,
  restore?: PolicyFiles,
  rolloutQuant: RolloutQuant = 'none',
): Promise<HfLoraPolicy> {
  const src = dirSource(`${FIXTURE_ROOT}qwen2-untied-mqa-f32`);
  return new HfLoraPolicy(gpu, {
    name,
    checkpoint: await importHfModel(src),
    tokenizer: await loadHfTokenizer(src),
    lora: { rank: 4, alpha: 8, targets: [...LORA_TARGETS] },
    seed,
    rolloutQuant,
    maxPromptTokens: 200,
    microBatch: 2,
    baseModel: 'qwen2-untied-mqa-f32',
    restore,
  });
}

// 'none': the f32 base through the merged learner; 'int4': the base held only as int4 codes (FrozenBase).
describe.each(['none', 'int4'] as const)('HfLoraPolicy on the transformers fixture (rollout_quant %s)', (quant) => {
  it(
    'GRPO moves the adapters in the advantage direction, the base stays; PEFT files hold the trained adapters',
    { timeout: 300_000 },
    async () => {
      const seed = (Date.now() ^ (Math.random() * 2 ** 31)) >>> 0;
      const policy = await makePolicy('hf-dir', seed, undefined, quant);
      const problems = loadCurriculum(PRESETS.micro.tasks.families).train.slice(0, 3);
      const prompts = problems.map((p) => policy.promptFormat.coderPrompt(p));
      expect(prompts[0]).toMatch(/^<\|im_start\|>system\nYou are a helpful code completion assistant\.<\|im_end\|>/);
      const gens = (
        await policy.generate([...prompts, ...prompts], { maxNewTokens: 12, temperature: 1, topP: 1, seed })
      ).filter((g) => g.completionTokens.length >= 2);
      expect(gens.length, `seed ${seed}`).toBeGreaterThanOrEqual(4);
      const adv = gens.map((_, i) => (i % 2 === 0 ? 1 : -1));
      const before = await Promise.all(gens.map((g) => seqLogp(policy.model, g)));
      const base = await policy.model.readParams();
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
      // Only the adapters trained: the base (the KL reference) is bit-identical, the learner's merged weights moved;
      // a quantized base has no f32 Linear weights at all (and the f32 tensors it has are unchanged).
      if (policy.learner instanceof LoraLearner)
        expect(await gpu.readF32(policy.learner.base, base.length)).toEqual(base);
      else {
        expect(policy.model.holds(policy.model.layout.layers[0].q)).toBe(false);
        expect(await policy.model.readParams()).toEqual(base);
      }
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
    },
  );

  it(
    'restored from save() (adapters, AdamW moments, step), the next update equals the uninterrupted one bit for bit; the KL reference (adapters off) is the base',
    { timeout: 300_000 },
    async () => {
      const seed = 20261201;
      const whole = await makePolicy('hf-whole', seed, undefined, quant);
      const problems = loadCurriculum(PRESETS.micro.tasks.families).train.slice(0, 2);
      const prompts = problems.map((p) => whole.promptFormat.coderPrompt(p));
      const gens = await whole.generate([...prompts, ...prompts], { maxNewTokens: 8, temperature: 1, topP: 1, seed });
      const items: GrpoItem[] = gens.map((g, i) => ({
        promptTokens: g.promptTokens,
        completionTokens: g.completionTokens,
        rolloutLogprobs: g.rolloutLogprobs,
        advantage: i % 2 === 0 ? 1 : -1,
      }));
      const s: GrpoSettings = {
        lr: 1e-3,
        grpo: { ...PRESETS.micro.grpo, beta: 0.001 },
        optim: PRESETS.micro.optim,
        rollout: { max_completion_length: 8, temperature: 1 },
      };
      const stopped = await makePolicy('hf-stopped', seed, undefined, quant);
      expect((await whole.grpoUpdate(items, s)).skipped).toBe(false);
      // The other policy's first step recomputes each layer in the backward (optim.recompute; two micro-batches
      // accumulate) and reports progress per micro-batch with a wait before each (where a UI's pause holds): the same
      // kernels in the same order, so the same adapters bit for bit.
      const waits: number[] = [];
      const done: string[] = [];
      const recompute: GrpoSettings = {
        ...s,
        optim: { ...s.optim, recompute: true },
        progress: {
          beforeMicro: async () => {
            waits.push(done.length);
            await new Promise((r) => setTimeout(r, 20));
          },
          onMicro: (d, t) => done.push(`${d}/${t}`),
        },
      };
      expect((await stopped.grpoUpdate(items, recompute)).skipped).toBe(false);
      expect(stopped.model.recompute).toBe(true);
      expect(await stopped.parameters()).toEqual(await whole.parameters());
      const micro = Math.ceil(items.filter((it) => it.completionTokens.length > 0).length / 2);
      expect(waits.length, 'a wait before each micro-batch').toBe(micro);
      expect(micro).toBeGreaterThan(1);
      await expect.poll(() => done.length).toBe(micro);
      expect(done.at(-1)).toBe(`${micro}/${micro}`);
      const saved = await stopped.save();
      expect(Object.keys(saved).sort()).toEqual([
        'adapter_config.json',
        'adapter_model.safetensors',
        'optimizer.safetensors',
      ]);
      stopped.destroy();
      const resumed = await makePolicy('hf-resumed', seed + 1, saved, quant);
      expect(resumed.lora.step).toBe(1);
      // Second step: AdamW's bias correction and moments depend on the restored state, so a lost moment shows here.
      await whole.grpoUpdate(items, s);
      await resumed.grpoUpdate(items, s);
      expect(await resumed.parameters()).toEqual(await whole.parameters());
      const [a, b] = [await whole.save(), await resumed.save()];
      expect(b['optimizer.safetensors']).toEqual(a['optimizer.safetensors']);
      expect(b['adapter_model.safetensors']).toEqual(a['adapter_model.safetensors']);

      // The KL reference is the learner with its (now trained) adapters off: the same log-probs as a separate model
      // holding the base, and the learner is back on the merged weights afterwards.
      const merged = await whole.model.readParams();
      // The separate copy: an f32 model of the base, or a fresh int4 policy (PEFT init B = 0: exactly its base).
      const fresh = quant === 'none' ? undefined : await makePolicy('hf-fresh', seed, undefined, quant);
      const base =
        fresh?.model ??
        new GpuModel(
          gpu,
          whole.model.layout,
          (await importHfModel(dirSource(`${FIXTURE_ROOT}qwen2-untied-mqa-f32`))).params,
          'base',
        );
      const refLogps = async (parts: Omit<GrpoPolicyParts, 'name' | 'model' | 'padId' | 'microBatch'>) => {
        const prep = prepareGrpoMicroBatches(
          { name: 'kl', model: whole.model, padId: 0, microBatch: 3, ...parts },
          items,
          { ...s, grpo: { ...s.grpo, beta: 0.5 } },
          false,
        );
        const out = [];
        for (const m of prep.micro) {
          const buf = m.spec.kind === 'grpo' ? m.spec.refLogp : null;
          // Only completion rows carry a log-prob (the rest of the scattered buffer is never read by the loss).
          const mask = await gpu.readF32(m.batch.mask!, m.batch.T);
          const logp = buf ? await gpu.readF32(buf, m.batch.T) : new Float32Array(0);
          out.push(Array.from(logp).filter((_, t) => mask[t] === 1));
        }
        prep.release();
        return out;
      };
      const viaUnmerge = await refLogps({
        ref: whole.model,
        referenceState: whole.reference,
      });
      const viaCopy = await refLogps({ ref: base });
      expect(viaUnmerge).toHaveLength(2);
      expect(viaUnmerge.every((l) => l.length > 0 && l.every(Number.isFinite))).toBe(true);
      expect(viaUnmerge).toEqual(viaCopy);
      expect(await whole.model.readParams()).toEqual(merged);
      if (fresh) fresh.destroy();
      else {
        expect(await base.readParams()).not.toEqual(merged);
        base.destroy();
      }
      whole.destroy();
      resumed.destroy();
    },
  );
});

describe('HfLoraPolicy settings', () => {
  it("refuses saved adapters whose rank differs from the run's", async () => {
    const p = await makePolicy('hf-r4', 3);
    const files = await p.save();
    p.destroy();
    const src = dirSource(`${FIXTURE_ROOT}qwen2-untied-mqa-f32`);
    const opts = {
      name: 'hf-r8',
      checkpoint: await importHfModel(src),
      tokenizer: await loadHfTokenizer(src),
      lora: { rank: 8, alpha: 16, targets: [...LORA_TARGETS] },
      seed: 3,
      rolloutQuant: 'none' as const,
      maxPromptTokens: 200,
      baseModel: 'x',
      restore: files,
    };
    expect(() => new HfLoraPolicy(gpu, opts)).toThrow(
      /saved adapters \(r4, α 8, 21 matrices\) differ from this run's LoRA settings \(r8, α 16\)/,
    );
  });
});
