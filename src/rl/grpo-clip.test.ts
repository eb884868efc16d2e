// The clipped objective acts once there is more than one optimizer step per batch (verl mini-batches): the second
// mini-batch is off-policy (old log-probs = the policy at rollout time), its clip fractions are non-zero, and the clip
// changes the update; with one mini-batch the ratio is 1 and the clip range makes no difference (real micro model).
// Per-layer recompute leaves the update unchanged.
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import type { Gpu } from '../gpu/runtime';
import { loadCheckpointDir } from '../model/checkpoint-node';
import type { LoadedCheckpoint } from '../model/checkpoint';
import { LabPolicy } from './lab-policy';
import { detachFirstMiniBatch } from './grpo-update';
import { PRESETS } from './config';
import { loadCurriculum } from '../run/lab-setup';
import { coderPrompt } from './prompts';
import type { GrpoItem, GrpoSettings, UpdateStats } from './policy';

let gpu: Gpu;
let checkpoint: LoadedCheckpoint;
let items: GrpoItem[];
const cfg = PRESETS.micro;

beforeAll(async () => {
  gpu = await sharedNodeGpu();
  checkpoint = await loadCheckpointDir(`public/${cfg.model.coderCheckpoint}`);
  const sampler = LabPolicy.create(gpu, {
    name: 'clip-sampler',
    checkpoint,
    rolloutQuant: 'none',
    maxPromptTokens: 160,
  });
  const prompts = loadCurriculum(cfg.tasks.families)
    .train.slice(0, 8)
    .map((p) => coderPrompt(p.prompt));
  const gens = (await sampler.generate(prompts, { maxNewTokens: 16, temperature: 1, topP: 1, seed: 11 })).filter(
    (g) => g.completionTokens.length >= 2,
  );
  items = gens.map((g, i) => ({
    promptTokens: g.promptTokens,
    completionTokens: g.completionTokens,
    rolloutLogprobs: g.rolloutLogprobs,
    advantage: i % 2 ? -1 : 1,
  }));
  sampler.destroy();
}, 300_000);

/** One update from the checkpoint; returns its stats and the flat parameters after it. */
async function update(s: GrpoSettings): Promise<{ stats: UpdateStats; params: Float32Array; recompute: boolean }> {
  const p = LabPolicy.create(gpu, { name: 'clip', checkpoint, rolloutQuant: 'none', maxPromptTokens: 160 });
  const stats = await p.grpoUpdate(items, s);
  const params = await p.model.readParams();
  const recompute = p.model.recompute;
  p.destroy();
  return { stats, params, recompute };
}

function maxDiff(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
}

describe('clipped GRPO with mini-batches (micro coder)', { timeout: 300_000 }, () => {
  // A large step so the first mini-batch moves the policy well past the trust region for the second.
  const settings = (mini_batches: number, grpo: Partial<GrpoSettings['grpo']> = {}): GrpoSettings => ({
    lr: 2e-2,
    grpo: { ...cfg.grpo, beta: 0, is_cap: 1e9, ...grpo },
    optim: { ...cfg.optim, weight_decay: 0, mini_batches },
    rollout: { max_completion_length: 16, temperature: 1 },
  });
  const noClip = { epsilon_low: 1, epsilon_high: 1e6, dual_clip_c: 1e9 };

  it('two mini-batches: clip fractions > 0 and the clip changes the update', async () => {
    expect(items.length).toBeGreaterThanOrEqual(4);
    const clipped = await update(settings(2));
    const free = await update(settings(2, noClip));
    const frac = clipped.stats.clipLow + clipped.stats.clipHigh;
    const d = maxDiff(clipped.params, free.params);
    console.log(
      `2 mini-batches: clip low ${clipped.stats.clipLow.toFixed(4)} high ${clipped.stats.clipHigh.toFixed(4)}; max |Δθ| clip vs no clip ${d.toExponential(2)}`,
    );
    expect(frac).toBeGreaterThan(0);
    expect(free.stats.clipLow + free.stats.clipHigh).toBe(0);
    expect(d).toBeGreaterThan(1e-6);
  });

  it('two mini-batches: the first one detached gives the very update its recorded old log-probs give', async () => {
    const s = settings(2, { beta: 0.001 });
    const detached = await update(s);
    detachFirstMiniBatch.enabled = false;
    const recorded = await update(s).finally(() => (detachFirstMiniBatch.enabled = true));
    console.log(`first mini-batch detached vs recorded: max |Δθ| ${maxDiff(detached.params, recorded.params)}`);
    expect(detached.stats).toEqual(recorded.stats);
    expect(maxDiff(detached.params, recorded.params)).toBe(0);
  });

  it('one mini-batch: ratio 1, no clipping, the clip range makes no difference', async () => {
    const clipped = await update(settings(1));
    const free = await update(settings(1, noClip));
    expect(clipped.stats.clipLow + clipped.stats.clipHigh).toBe(0);
    expect(maxDiff(clipped.params, free.params)).toBe(0);
  });

  it('per-layer recompute (optim.recompute) gives the same stats and parameters bit for bit', async () => {
    const kept = await update(settings(2));
    const s = settings(2);
    const re = await update({ ...s, optim: { ...s.optim, recompute: true } });
    expect([kept.recompute, re.recompute]).toEqual([false, true]);
    expect(re.stats).toEqual(kept.stats);
    expect(maxDiff(re.params, kept.params)).toBe(0);
  });

  it('old log-probs stay those of the rollout policy: two passes over one mini-batch clip on the second', async () => {
    const r = await update(settings(1, { num_iterations: 2 }));
    expect(r.stats.clipLow + r.stats.clipHigh).toBeGreaterThan(0);
  });
});
