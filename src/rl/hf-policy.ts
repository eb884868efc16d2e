// A Hugging Face model as a Coder or Tester: the imported Qwen2 weights frozen, rank-r LoRA adapters trained by the
// same GRPO update (AdamW on the adapters only), the release's chat prompts through the model's own template, and
// PEFT adapter files as the saved state.
//
// With a quantized rollout precision (int8 / int4, the default) the base is held ONLY in that format (FrozenBase:
// no f32 copy of its Linear weights): rollouts, the training forward (qmatmul) and backward (qmatmulT) and the KL
// reference (the same base with the adapters off) all read it. With rollout_quant 'none' the base stays f32 and the
// merged learner (LoraLearner) trains it, as before. Either way no second model exists for the KL reference.
import type { Gpu } from '../gpu/runtime';
import { GpuModel } from '../model/model';
import type { DecodeWeights } from '../model/decode-weights';
import { quantFormatFor } from '../model/rollout-weights';
import { rolloutWeightsFor, type RolloutPrecision } from '../model/rollout-select';
import type { LoadedCheckpoint } from '../model/checkpoint';
import type { HfTokenizer } from '../model/hf/tokenizer';
import { initLora, type LoraAdapters, type LoraConfig } from '../model/hf/lora';
import { GpuLora } from '../model/hf/lora-gpu';
import { LoraLearner } from '../model/hf/lora-learner';
import { frozenLoraModel, FrozenLoraLearner } from '../model/hf/frozen-base';
import { exportPeftAdapter, importPeftAdapter, PEFT_CONFIG_FILE, PEFT_WEIGHTS_FILE } from '../model/hf/export';
import { decodeOptimizer, encodeOptimizer, OPTIMIZER_FILE } from './optimizer-file';
import { grpoOptim, runGrpoUpdate } from './grpo-update';
import { sampleCompletions } from './policy-sample';
import { chatFormat, type PromptFormat } from './prompts-chat';
import type { Generation, GenerateOptions, GrpoItem, GrpoSettings, Policy, PolicyFiles, UpdateStats } from './policy';

export interface HfLoraPolicyOptions {
  name: string;
  /** The imported model (f32 parameters) and its tokenizer folder. */
  checkpoint: LoadedCheckpoint;
  tokenizer: HfTokenizer;
  lora: LoraConfig;
  /** Seed of the adapters' A init (B starts at zero, as PEFT, so the first policy is the base). */
  seed: number;
  rolloutQuant: RolloutPrecision;
  maxPromptTokens: number;
  microBatch?: number;
  /** Written into adapter_config.json's base_model_name_or_path. */
  baseModel: string;
  /** Files save() wrote (PEFT adapter + optimizer state): a resumed run continues from them. */
  restore?: PolicyFiles;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

export class HfLoraPolicy implements Policy {
  readonly name: string;
  readonly promptFormat: PromptFormat;
  readonly model: GpuModel;
  readonly lora: GpuLora;
  readonly learner: LoraLearner | FrozenLoraLearner;
  private readonly rollout: DecodeWeights & { refresh?: () => void; destroy?: () => void };
  /** Enters and leaves the KL reference policy (the base with the adapters off). */
  readonly reference: { enter(): void; leave(): void };
  private readonly padId: number;
  private readonly stopIds: number[];

  constructor(
    readonly gpu: Gpu,
    private readonly opts: HfLoraPolicyOptions,
  ) {
    const tok = opts.tokenizer;
    if (!tok.chatTemplate)
      throw new Error(`${opts.name}: the tokenizer has no chat template (an instruct model is needed)`);
    if (!tok.stopTokenIds.length) throw new Error(`${opts.name}: the tokenizer names no eos token`);
    this.name = opts.name;
    this.promptFormat = chatFormat((m) => tok.applyChatTemplate(m, { addGenerationPrompt: true }));
    // The sampler takes two stop ids; Qwen's instruct models list <|im_end|> and <|endoftext|>.
    this.stopIds = tok.stopTokenIds.slice(0, 2);
    this.padId = tok.padId ?? this.stopIds[0];
    const ck = opts.checkpoint;
    // Saved adapters are checked before any GPU buffer exists, so a refusal leaks nothing.
    const adapters = opts.restore ? this.restored(opts.restore) : initLora(ck.layout, opts.lora, opts.seed);
    this.lora = new GpuLora(gpu, adapters, `${opts.name}.lora`);
    const optimizer = opts.restore && decodeOptimizer(opts.restore, opts.name);
    if (optimizer) this.lora.setOptimizerState(optimizer);
    if (opts.rolloutQuant === 'none' || opts.rolloutQuant === 'f16') {
      this.model = new GpuModel(gpu, ck.layout, ck.params, `${opts.name}.learner`);
      const learner = new LoraLearner(this.model, this.lora);
      learner.merge();
      this.learner = learner;
      this.rollout = rolloutWeightsFor(this.model, opts.rolloutQuant);
      this.reference = { enter: () => learner.unmerge(), leave: () => learner.merge() };
    } else {
      const f = frozenLoraModel(gpu, ck, this.lora, quantFormatFor(opts.rolloutQuant), `${opts.name}.learner`);
      this.model = f.model;
      this.learner = new FrozenLoraLearner(f.model, f.base);
      // Rollouts read the very base the learner trains on, with the current adapters: nothing to refresh.
      this.rollout = f.base;
      this.reference = this.learner.reference;
    }
  }

  /** The adapters of a saved policy, which must have this run's rank, alpha and targets. */
  private restored(files: PolicyFiles): LoraAdapters {
    const cfg = files[PEFT_CONFIG_FILE];
    const weights = files[PEFT_WEIGHTS_FILE];
    if (!cfg || !weights)
      throw new Error(`${this.name}: the saved policy lacks ${PEFT_CONFIG_FILE} or ${PEFT_WEIGHTS_FILE}`);
    const a = importPeftAdapter(this.opts.checkpoint.layout, dec.decode(cfg), weights);
    const want = this.opts.lora;
    if (
      a.config.rank !== want.rank ||
      a.config.alpha !== want.alpha ||
      a.pairs.size !== initLora(this.opts.checkpoint.layout, want, 0).pairs.size
    )
      throw new Error(
        `${this.name}: the saved adapters (r${a.config.rank}, α ${a.config.alpha}, ${a.pairs.size} matrices) differ from this run's LoRA settings (r${want.rank}, α ${want.alpha})`,
      );
    return a;
  }

  tokenCount(text: string): number {
    return this.opts.tokenizer.tokenizer.encode(text).length;
  }

  generate(prompts: string[], o: GenerateOptions): Promise<Generation[]> {
    const setup = {
      weights: this.rollout,
      tokenizer: this.opts.tokenizer.tokenizer,
      maxPromptTokens: this.opts.maxPromptTokens,
      padId: this.padId,
      stopTokenIds: this.stopIds,
    };
    return sampleCompletions(setup, prompts, o);
  }

  /** GRPO on the adapters: AdamW (no weight-decay mask: adapters are all matrices) over A and B only. */
  grpoUpdate(items: GrpoItem[], s: GrpoSettings): Promise<UpdateStats> {
    return runGrpoUpdate(
      {
        name: this.name,
        model: this.model,
        ref: this.model,
        referenceState: this.reference,
        padId: this.padId,
        microBatch: this.opts.microBatch ?? 16,
        step: (micro, st, hooks) => {
          this.model.recompute = st.optim.recompute;
          return this.learner.stepMicro(micro, grpoOptim(st), hooks);
        },
        refresh: () => this.rollout.refresh?.(),
      },
      items,
      s,
    );
  }

  /** The adapters as PEFT files (adapter_config.json + adapter_model.safetensors). */
  async save(): Promise<PolicyFiles> {
    const files: PolicyFiles = {};
    for (const [name, data] of exportPeftAdapter(await this.adapters(), this.opts.baseModel))
      files[name] = typeof data === 'string' ? enc.encode(data) : data;
    // AdamW's moments and step, so that --resume continues exactly (PEFT loaders ignore the extra file).
    const opt = await this.lora.optimizerState();
    if (opt) files[OPTIMIZER_FILE] = encodeOptimizer(opt);
    return files;
  }

  private async adapters() {
    const cur = await this.lora.read();
    const init = initLora(this.opts.checkpoint.layout, this.opts.lora, this.opts.seed);
    for (const [name, p] of init.pairs) {
      const f = cur.get(name);
      if (f) init.pairs.set(name, { ...p, A: f.A, B: f.B });
    }
    return init;
  }

  /** The trainable tensors: every adapter's A and B, by PEFT-like names. */
  async parameters(): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    for (const [name, f] of await this.lora.read()) {
      const stem = name.replace(/\.weight$/, '');
      out.set(`${stem}.lora_A.weight`, f.A);
      out.set(`${stem}.lora_B.weight`, f.B);
    }
    return out;
  }

  destroy(): void {
    this.rollout.destroy?.();
    if (this.learner instanceof LoraLearner) this.learner.destroy();
    this.lora.destroy();
    this.model.destroy();
  }
}
