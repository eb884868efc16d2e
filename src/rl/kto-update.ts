// The KTO update of a lab policy (ACE's adversary): one optimizer step over labelled sequences, the loss on our
// kto-loss kernel with reference log-probs from the frozen reference model.
import { destroyBatch, type GpuBatch } from '../model/forward-batch';
import { recordLogprobs } from '../model/forward-logprobs';
import type { MicroBatch } from '../model/backward-step';
import { sequenceLayout, uploadLayout } from './grpo-batches';
import { IDLE_STATS, type GrpoUpdateParts } from './grpo-update';
import type { KtoItem, KtoSettings, UpdateStats } from './policy';

/**
 * One optimizer step. Micro-batches accumulate their gradients, each scaled by its share of the labelled sequences,
 * so the step's loss is the mean over all of them. The reference point z is estimated per micro-batch (the kernel's
 * batch estimate; docs/method.md).
 */
export async function runKtoUpdate(p: GrpoUpdateParts, items: KtoItem[], s: KtoSettings): Promise<UpdateStats> {
  const usable = items.filter((it) => it.completionTokens.length > 0);
  if (!usable.length) return { ...IDLE_STATS };
  const gpu = p.model.gpu;
  await gpu.ready();
  const batches: GpuBatch[] = [];
  const temps: GPUBuffer[] = [];
  const released: GPUBuffer[] = [];
  const micro: MicroBatch[] = [];
  for (let i = 0; i < usable.length; i += p.microBatch) {
    const group = usable.slice(i, i + p.microBatch);
    const l = sequenceLayout(group, p.model.config.maxSeqLen, p.padId);
    const batch = uploadLayout(gpu, l, `${p.name}.kto`);
    batches.push(batch);
    const ref = recordLogprobs(p.ref, batch, s.rollout.temperature, { rows: 'mask' });
    gpu.release(ref.entropy);
    released.push(ref.logp);
    const labels = gpu.buffer(`${p.name}.kto_labels`, Float32Array.from(group.map((it) => it.label)));
    temps.push(labels);
    micro.push({
      batch,
      spec: {
        kind: 'kto',
        refLogp: ref.logp,
        labels,
        config: s.kto,
        temperature: s.rollout.temperature,
        lossScale: l.B / usable.length,
      },
    });
  }
  const r = await p.step(micro, s);
  for (const b of released) gpu.release(b);
  for (const b of batches) destroyBatch(b);
  for (const t of temps) t.destroy();
  if (!r.skipped) p.refresh();
  const results = r.micro ?? [r];
  const tokens = usable.reduce((a, it) => a + it.completionTokens.length, 0);
  const weighted = (f: (x: (typeof results)[number]) => number) =>
    results.reduce((a, x) => a + f(x) * (x.kto?.completion_tokens ?? 0), 0) / Math.max(1, tokens);
  return {
    ...IDLE_STATS,
    // Each micro-batch's loss already carries its share: their sum is the step's mean.
    loss: results.reduce((a, x) => a + x.loss, 0),
    kl: weighted((x) => x.kto?.z_ref ?? 0),
    entropy: weighted((x) => x.entropy ?? 0),
    gradNorm: r.gradNorm,
    skipped: r.skipped || !Number.isFinite(r.loss),
    tokens,
  };
}
