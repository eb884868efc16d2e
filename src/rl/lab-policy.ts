// The lab's Policy: a GpuModel learner (fp32 masters + AdamW), a frozen reference copy for the KL, quantized rollout
// weights for sampling, and the tokenizer; GRPO updates run on our WGSL kernels.
import type { Gpu } from '../gpu/runtime';
import { GpuModel } from '../model/model';
import { fp32Weights, type DecodeWeights } from '../model/decode';
import { RolloutWeights, quantFormatFor, type RolloutQuant } from '../model/rollout-weights';
import { generate as sampleGenerate } from '../model/sampler';
import { trainStep, type StepResult } from '../model/backward-step';
import { decayMaskFromRanges } from '../gpu/kernels/adamw';
import { prepareGrpoMicroBatches } from './grpo-batches';
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
  private matricesMask?: GPUBuffer;

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

  /**
   * The GRPO update of one training step. The items are cut into `mini_batches` contiguous mini-batches, each one
   * AdamW step, and the whole is repeated `num_iterations` times. When there is more than one optimizer step the old
   * log-probs are recorded from the learner before the first one (the policy at rollout time, as verl's
   * compute_log_prob does), so later mini-batches are off-policy and the clip acts; with a single step the learner's
   * own detached log-probs are the same numbers and save that forward pass.
   */
  async grpoUpdate(items: GrpoItem[], s: GrpoSettings): Promise<UpdateStats> {
    for (const [k, v] of [['mini_batches', s.mini_batches], ['num_iterations', s.num_iterations]] as const) {
      if (!(Number.isInteger(v) && v >= 1)) throw new Error(`${this.name}: grpoUpdate needs ${k} >= 1, got ${v}`);
    }
    const usable = items.filter((it) => it.completionTokens.length > 0);
    const per = Math.ceil(usable.length / Math.max(1, Math.min(s.mini_batches, usable.length)));
    const minis: GrpoItem[][] = [];
    for (let i = 0; i < usable.length; i += per) minis.push(usable.slice(i, i + per));
    if (!minis.length) return { loss: 0, kl: 0, entropy: 0, clipLow: 0, clipHigh: 0, gradNorm: 0, mismatchKl: 0, skipped: false, tokens: 0 };
    const offPolicy = minis.length > 1 || s.num_iterations > 1;
    const parts = { name: this.name, model: this.model, ref: this.ref, padId: this.padId, microBatch: this.opts.microBatch ?? 16 };
    const prepared = minis.map((mini) => prepareGrpoMicroBatches(parts, mini, s, offPolicy));
    const optim = {
      adamw: { lr: s.lr, beta1: s.beta1, beta2: s.beta2, eps: s.eps, weightDecay: s.weight_decay, decayMask: this.decayMask(s.weight_decay_params) },
      maxGradNorm: s.max_grad_norm,
    };
    const steps: StepResult[] = [];
    for (let it = 0; it < s.num_iterations; it++) {
      for (const p of prepared) steps.push(await trainStep(this.model, p.micro, null, optim, s.lr));
    }
    for (const p of prepared) p.release();
    const skipped = steps.some((r) => r.skipped || !Number.isFinite(r.loss));
    if (steps.some((r) => !r.skipped)) this.rollout.refresh?.();
    const results = steps.flatMap((r) => r.micro ?? [r]);
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
    const mean = (f: (r: StepResult) => number) => steps.reduce((a, r) => a + f(r), 0) / steps.length;
    return {
      loss: mean((r) => r.loss),
      kl: weight((x) => x.grpo?.kl ?? 0),
      entropy: weight((x) => x.entropy ?? 0),
      clipLow: weight((x) => x.grpo?.low_clip ?? 0),
      clipHigh: weight((x) => x.grpo?.high_clip ?? 0),
      gradNorm: mean((r) => r.gradNorm),
      mismatchKl: weight((x) => x.grpo?.mismatch_kl ?? 0),
      skipped,
      tokens: usable.reduce((a, it) => a + it.completionTokens.length, 0),
    };
  }

  /** AdamW's decay mask: none for 'all', else a bitmask of the embedding and linear tensors (cached). */
  private decayMask(which: 'all' | 'matrices'): GPUBuffer | undefined {
    if (which === 'all') return undefined;
    if (!this.matricesMask) {
      const { layout } = this.model;
      const bits = decayMaskFromRanges(layout.totalFloats, layout.tensors.filter((t) => t.kind === 'linear' || t.kind === 'embedding'));
      this.matricesMask = this.gpu.buffer(`${this.name}.decay_mask`, bits);
    }
    return this.matricesMask;
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
    this.matricesMask?.destroy();
  }
}
