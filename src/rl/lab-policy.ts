// The lab's Policy: a GpuModel learner (fp32 masters + AdamW), a frozen reference copy for the KL, quantized rollout
// weights for sampling, and the tokenizer; GRPO updates run on our WGSL kernels.
import type { Gpu } from '../gpu/runtime';
import { GpuModel } from '../model/model';
import type { DecodeWeights } from '../model/decode-weights';
import { rolloutWeightsFor, type RolloutPrecision } from '../model/rollout-select';
import { trainStep } from '../model/backward-step';
import { decayMaskFromRanges } from '../gpu/kernels/adamw';
import { grpoOptim, runGrpoUpdate, type GrpoUpdateParts } from './grpo-update';
import { runKtoUpdate } from './kto-update';
import { sampleCompletions } from './policy-sample';
import { loadCheckpoint, CONFIG_FILE, TOKENIZER_FILE, WEIGHTS_FILE, type LoadedCheckpoint } from '../model/checkpoint';
import { decodeOptimizer, encodeOptimizer, OPTIMIZER_FILE } from './optimizer-file';
import { view } from '../model/layout';
import { loadTokenizer, type BpeTokenizer } from '../model/tokenizer';
import { SPECIAL_TOKENS } from '../model/special-tokens';
import type {
  Generation,
  GenerateOptions,
  GrpoItem,
  GrpoSettings,
  KtoItem,
  KtoSettings,
  Policy,
  PolicyFiles,
  UpdateStats,
} from './policy';

export { OPTIMIZER_FILE };

export interface LabPolicyOptions {
  name: string;
  /** The learner's starting point (weights, config, tokenizer). */
  checkpoint: LoadedCheckpoint;
  /** The frozen reference policy for the KL term (default: the starting checkpoint's weights). */
  reference?: Float32Array;
  rolloutQuant: RolloutPrecision;
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
    this.rollout = rolloutWeightsFor(this.model, opts.rolloutQuant);
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
    const optimizer = decodeOptimizer(files, base.name);
    return new LabPolicy(gpu, { ...base, checkpoint, optimizer });
  }

  tokenCount(text: string): number {
    return this.tokenizer.encode(text).length;
  }

  async generate(prompts: string[], o: GenerateOptions): Promise<Generation[]> {
    const setup = {
      weights: this.rollout,
      tokenizer: this.tokenizer,
      maxPromptTokens: this.opts.maxPromptTokens,
      padId: this.padId,
    };
    return sampleCompletions(setup, prompts, o);
  }

  /** The GRPO update of one training step (grpo-update.ts), full fine-tuning with our training step. */
  async grpoUpdate(items: GrpoItem[], s: GrpoSettings): Promise<UpdateStats> {
    return runGrpoUpdate(this.updateParts(), items, s);
  }

  /** One KTO step (kto-update.ts) on the same learner, reference and optimizer. */
  async ktoUpdate(items: KtoItem[], s: KtoSettings): Promise<UpdateStats> {
    return runKtoUpdate(this.updateParts(), items, s);
  }

  private updateParts(): GrpoUpdateParts {
    return {
      name: this.name,
      model: this.model,
      ref: this.ref,
      padId: this.padId,
      microBatch: this.opts.microBatch ?? 16,
      step: (micro, st, hooks) => {
        this.model.recompute = st.optim.recompute;
        return trainStep(this.model, micro, null, grpoOptim(st, this.decayMask(st.optim.weight_decay_params)), hooks);
      },
      refresh: () => this.rollout.refresh?.(),
    };
  }

  /** AdamW's decay mask: none for 'all', else a bitmask of the embedding and linear tensors (cached). */
  private decayMask(which: 'all' | 'matrices'): GPUBuffer | undefined {
    if (which === 'all') return undefined;
    if (!this.matricesMask) {
      const { layout } = this.model;
      const bits = decayMaskFromRanges(
        layout.totalFloats,
        layout.tensors.filter((t) => t.kind === 'linear' || t.kind === 'embedding'),
      );
      this.matricesMask = this.gpu.buffer(`${this.name}.decay_mask`, bits);
    }
    return this.matricesMask;
  }

  async save(): Promise<PolicyFiles> {
    const ck = await this.model.checkpoint({
      tokenizerJson: this.tokenizer.toJsonString(),
      metadata: { step: String(this.model.step) },
    });
    const files: PolicyFiles = {
      [WEIGHTS_FILE]: ck[WEIGHTS_FILE],
      [CONFIG_FILE]: enc.encode(ck[CONFIG_FILE]),
    };
    if (ck[TOKENIZER_FILE]) files[TOKENIZER_FILE] = enc.encode(ck[TOKENIZER_FILE]);
    if (this.model.moments) {
      const n = this.model.layout.totalFloats;
      const m = await this.gpu.readF32(this.model.moments.m, n);
      const v = await this.gpu.readF32(this.model.moments.v, n);
      files[OPTIMIZER_FILE] = encodeOptimizer({ m, v, step: this.model.step });
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
