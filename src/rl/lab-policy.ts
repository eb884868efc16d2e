// The lab's Policy: a GpuModel learner (fp32 masters + AdamW), a frozen reference copy for the KL, quantized rollout
// weights for sampling, and the tokenizer; GRPO updates run on our WGSL kernels.
import type { Gpu } from '../gpu/runtime';
import { GpuModel } from '../model/model';
import { fp32Weights, type DecodeWeights } from '../model/decode';
import { RolloutWeights, quantFormatFor, type RolloutQuant } from '../model/rollout-weights';
import { generate as sampleGenerate } from '../model/sampler';
import { uploadBatch, destroyBatch } from '../model/forward-batch';
import { recordLogprobs } from '../model/forward-logprobs';
import { trainStep } from '../model/backward-step';
import { loadCheckpoint, CONFIG_FILE, TOKENIZER_FILE, WEIGHTS_FILE, type LoadedCheckpoint } from '../model/checkpoint';
import { decodeSafetensors, encodeSafetensors, bytesOf, toFloat32 } from '../model/checkpoint-safetensors';
import { view } from '../model/layout';
import { loadTokenizer, type BpeTokenizer } from '../model/tokenizer';
import { SPECIAL_TOKENS } from '../model/special-tokens';
import type { Generation, GenerateOptions, GrpoItem, GrpoSettings, Policy, PolicyFiles, UpdateStats } from './policy';

export const OPTIMIZER_FILE = 'optimizer.safetensors';

export interface LabPolicyOptions {
  name: string;
  /** The learner's starting point (weights, config, tokenizer). */
  checkpoint: LoadedCheckpoint;
  /** The frozen reference policy for the KL term (default: the starting checkpoint's weights). */
  reference?: Float32Array;
  rolloutQuant: RolloutQuant;
  /** Prompts longer than this keep their last tokens. */
  maxPromptTokens: number;
  /** Sequences per micro-batch in the update (bounds the [T, V] logits buffers). */
  microBatch?: number;
  optimizer?: { m: Float32Array; v: Float32Array; step: number };
}

const enc = new TextEncoder();
const dec = new TextDecoder();

export class LabPolicy implements Policy {
  readonly name: string;
  readonly model: GpuModel;
  readonly ref: GpuModel;
  readonly tokenizer: BpeTokenizer;
  private rollout: DecodeWeights & { refresh?: () => void };
  private readonly padId: number;

  private constructor(
    readonly gpu: Gpu,
    private readonly opts: LabPolicyOptions,
  ) {
    const ck = opts.checkpoint;
    if (!ck.tokenizerJson) throw new Error(`${opts.name}: the checkpoint has no tokenizer.json`);
    this.name = opts.name;
    this.tokenizer = loadTokenizer(ck.tokenizerJson);
    this.padId = this.tokenizer.requireId(SPECIAL_TOKENS.pad);
    this.model = new GpuModel(gpu, ck.layout, ck.params, `${opts.name}.learner`);
    this.ref = new GpuModel(gpu, ck.layout, opts.reference ?? ck.params, `${opts.name}.reference`);
    if (opts.optimizer) {
      const { m, v } = this.model.ensureMoments();
      gpu.write(m, opts.optimizer.m);
      gpu.write(v, opts.optimizer.v);
      this.model.step = opts.optimizer.step;
    }
    this.rollout = opts.rolloutQuant === 'none' ? fp32Weights(this.model) : new RolloutWeights(this.model, quantFormatFor(opts.rolloutQuant));
  }

  static create(gpu: Gpu, opts: LabPolicyOptions): LabPolicy {
    return new LabPolicy(gpu, opts);
  }

  /** Restores a policy saved by `save()` (weights + optimizer state), with the given reference weights. */
  static restore(gpu: Gpu, files: PolicyFiles, base: Omit<LabPolicyOptions, 'checkpoint' | 'optimizer'>): LabPolicy {
    const need = (n: string) => {
      const f = files[n];
      if (!f) throw new Error(`${base.name}: saved policy is missing ${n}`);
      return f;
    };
    const checkpoint = loadCheckpoint({
      weights: need(WEIGHTS_FILE),
      config: dec.decode(need(CONFIG_FILE)),
      tokenizerJson: files[TOKENIZER_FILE] ? dec.decode(files[TOKENIZER_FILE]) : undefined,
    });
    let optimizer: LabPolicyOptions['optimizer'];
    if (files[OPTIMIZER_FILE]) {
      const f = decodeSafetensors(files[OPTIMIZER_FILE], OPTIMIZER_FILE);
      const m = f.tensors.get('adam_m');
      const v = f.tensors.get('adam_v');
      if (!m || !v) throw new Error(`${base.name}: ${OPTIMIZER_FILE} lacks adam_m/adam_v`);
      optimizer = { m: toFloat32(m), v: toFloat32(v), step: Number(f.metadata.step ?? 0) };
    }
    return new LabPolicy(gpu, { ...base, checkpoint, optimizer });
  }

  tokenCount(text: string): number {
    return this.tokenizer.encode(text).length;
  }

  async generate(prompts: string[], o: GenerateOptions): Promise<Generation[]> {
    const encoded = prompts.map((p) => {
      const ids = this.tokenizer.encode(p);
      return ids.length > this.opts.maxPromptTokens ? ids.slice(ids.length - this.opts.maxPromptTokens) : ids;
    });
    const maxLen = this.model.config.maxSeqLen;
    const longest = Math.max(...encoded.map((e) => e.length));
    const maxNew = Math.max(1, Math.min(o.maxNewTokens, maxLen - longest));
    const out = await sampleGenerate(this.rollout, encoded, {
      temperature: o.temperature,
      topP: o.topP,
      topK: o.topK,
      seed: o.seed,
      maxNewTokens: maxNew,
      stopStrings: o.stop?.filter((s) => this.tokenizer.tokenToId(s) === undefined),
      tokenizer: this.tokenizer,
      padId: this.padId,
      onProgress: o.onProgress,
    });
    return out.map((s, i) => ({
      text: s.text,
      promptTokens: encoded[i],
      completionTokens: s.tokens,
      rolloutLogprobs: s.logprobs,
      finishReason: s.finishReason,
    }));
  }

  async grpoUpdate(items: GrpoItem[], s: GrpoSettings): Promise<UpdateStats> {
    const gpu = this.gpu;
    const micro = this.opts.microBatch ?? 16;
    const totalTokens = items.reduce((a, it) => a + it.completionTokens.length, 0);
    const batches = [];
    const temps: GPUBuffer[] = [];
    for (let i = 0; i < items.length; i += micro) {
      const group = items.slice(i, i + micro).filter((it) => it.completionTokens.length > 0);
      if (!group.length) continue;
      const S = Math.min(this.model.config.maxSeqLen, Math.max(...group.map((it) => it.promptTokens.length + it.completionTokens.length)));
      const B = group.length;
      const T = B * S;
      const tokens = new Uint32Array(T).fill(this.padId);
      const targets = new Uint32Array(T).fill(this.padId);
      const mask = new Float32Array(T);
      const valid = new Float32Array(T);
      const positions = new Uint32Array(T);
      const rollout = new Float32Array(T);
      group.forEach((it, b) => {
        const seq = [...it.promptTokens, ...it.completionTokens].slice(0, S);
        const P = it.promptTokens.length;
        for (let t = 0; t < S; t++) {
          positions[b * S + t] = t;
          if (t < seq.length) {
            tokens[b * S + t] = seq[t];
            valid[b * S + t] = 1;
          }
          if (t + 1 < seq.length) targets[b * S + t] = seq[t + 1];
          // Logits at t predict token t+1: completion token j sits at P + j, predicted from t = P − 1 + j.
          const j = t + 1 - P;
          if (j >= 0 && t + 1 < seq.length) {
            mask[b * S + t] = 1;
            rollout[b * S + t] = it.rolloutLogprobs[j] ?? 0;
          }
        }
      });
      const batch = uploadBatch(gpu, { batch: B, seqLen: S, tokens, positions, valid, targets, mask }, `${this.name}.grpo`);
      // One update per batch (TRL num_iterations = 1): the old policy is the learner itself, detached.
      const ref = s.beta > 0 ? recordLogprobs(this.ref, batch, s.temperature, { rows: 'mask' }) : undefined;
      if (ref) gpu.release(ref.entropy);
      const advantages = gpu.buffer(`${this.name}.advantages`, Float32Array.from(group.map((it) => it.advantage)));
      const rolloutLogp = gpu.buffer(`${this.name}.rollout_logp`, rollout);
      temps.push(advantages, rolloutLogp);
      batches.push({
        batch,
        ref,
        spec: {
          kind: 'grpo' as const,
          oldLogp: 'detached' as const,
          refLogp: ref?.logp ?? null,
          rolloutLogp,
          advantages,
          temperature: s.temperature,
          config: {
            epsilon_low: s.epsilon_low,
            epsilon_high: s.epsilon_high,
            dual_clip_c: s.dual_clip_c,
            beta: s.beta,
            loss_type: s.loss_type,
            max_completion_length: s.max_completion_length,
            is_cap: s.is_cap,
          },
          // Micro-batches sum their gradients: grpo/dr_grpo scale by each micro-batch's share of sequences, dapo
          // normalises by the whole batch's completion tokens.
          lossScale: s.loss_type === 'dapo' ? 1 : B / items.length,
          normTokens: s.loss_type === 'dapo' ? totalTokens : undefined,
        },
      });
    }
    if (!batches.length) return { loss: 0, kl: 0, entropy: 0, clipLow: 0, clipHigh: 0, gradNorm: 0, mismatchKl: 0, skipped: false, tokens: 0 };
    const r = await trainStep(
      this.model,
      batches.map((b) => ({ batch: b.batch, spec: b.spec })),
      null,
      {
        adamw: { lr: s.lr, beta1: s.beta1, beta2: s.beta2, eps: s.eps, weightDecay: s.weight_decay },
        maxGradNorm: s.max_grad_norm,
      },
      s.lr,
    );
    for (const b of batches) {
      if (b.ref) gpu.release(b.ref.logp);
      destroyBatch(b.batch);
    }
    for (const t of temps) t.destroy();
    if (!r.skipped) this.rollout.refresh?.();
    const results = r.micro ?? [r];
    const weight = (f: (x: (typeof results)[number]) => number) => {
      let num = 0;
      let den = 0;
      for (const x of results) {
        const n = x.grpo?.completion_tokens ?? 0;
        num += f(x) * n;
        den += n;
      }
      return den ? num / den : 0;
    };
    const lossFinite = Number.isFinite(r.loss);
    return {
      loss: r.loss,
      kl: weight((x) => x.grpo?.kl ?? 0),
      entropy: weight((x) => x.entropy ?? 0),
      clipLow: weight((x) => x.grpo?.low_clip ?? 0),
      clipHigh: weight((x) => x.grpo?.high_clip ?? 0),
      gradNorm: r.gradNorm,
      mismatchKl: weight((x) => x.grpo?.mismatch_kl ?? 0),
      skipped: r.skipped || !lossFinite,
      tokens: totalTokens,
    };
  }

  async save(): Promise<PolicyFiles> {
    const ck = await this.model.checkpoint({ tokenizerJson: this.tokenizer.toJsonString(), metadata: { step: String(this.model.step) } });
    const files: PolicyFiles = {
      [WEIGHTS_FILE]: ck[WEIGHTS_FILE],
      [CONFIG_FILE]: enc.encode(ck[CONFIG_FILE]),
    };
    if (ck[TOKENIZER_FILE]) files[TOKENIZER_FILE] = enc.encode(ck[TOKENIZER_FILE]);
    if (this.model.moments) {
      const n = this.model.layout.totalFloats;
      const m = await this.gpu.readF32(this.model.moments.m, n);
      const v = await this.gpu.readF32(this.model.moments.v, n);
      files[OPTIMIZER_FILE] = encodeSafetensors(
        [
          { name: 'adam_m', dtype: 'F32', shape: [n], data: bytesOf(m) },
          { name: 'adam_v', dtype: 'F32', shape: [n], data: bytesOf(v) },
        ],
        { step: String(this.model.step) },
      );
    }
    return files;
  }

  async parameters(): Promise<Map<string, Float32Array>> {
    const flat = await this.model.readParams();
    return new Map(this.model.layout.tensors.map((t) => [t.name, view(flat, t).slice()]));
  }

  destroy(): void {
    (this.rollout as { destroy?: () => void }).destroy?.();
    this.model.destroy();
    this.ref.destroy();
  }
}
