// `npm run hf -- inspect SRC` / `npm run hf -- export …`: a Hugging Face Qwen2 folder or hub repo checked and
// described (shape, tensors, tokenizer, memory plan), optionally loaded with progress; a lab checkpoint written as a
// Hugging Face folder that transformers loads, re-imported to check it.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { intArg, type Args, numArg, runMain, UsageError } from './args';
import { helpText, parseCli } from './cli-spec';
import { HF_EXPORT_SPEC, HF_INSPECT_SPEC, HF_SPEC } from './help/model-specs';
import { didYouMean } from '../rl/nearest';
import { Progress } from './progress';
import { loadCheckpointDir } from '../model/checkpoint-node';
import { SPECIAL_TOKENS } from '../model/special-tokens';
import { paramCount } from '../model/config';
import { exportHfModel, labTokenizerFiles, type ExportDtype } from '../model/hf/export';
import { importHfModel, type WeightFormat } from '../model/hf/import';
import { parseQwen2Config } from '../model/hf/config';
import { indexCheckpoint } from '../model/hf/safetensors-stream';
import { dirSource } from '../model/hf/source-node';
import { hubSource } from '../model/hf/source-hub';
import { readJson, type HfSource } from '../model/hf/source';
import { loadHfTokenizer } from '../model/hf/tokenizer';
import { loadTokenizer } from '../model/tokenizer';
import { checkMemory, fmtBytes, formatPlan, type BaseFormat } from '../model/hf/memory-plan';
import { LORA_TARGETS } from '../model/hf/lora';
import { QUANT_FORMATS } from '../gpu/quant';
import { sharedNodeGpu } from '../gpu/node';
import { f16Unavailable } from '../model/f16-weights';
import { maxRelDiff } from '../testing/random';

function source(spec: string, args: Args): HfSource {
  if (!spec.startsWith('hub:')) return dirSource(spec);
  return hubSource({
    repo: spec.slice(4),
    revision: typeof args.revision === 'string' ? args.revision : undefined,
    endpoint: typeof args.endpoint === 'string' ? args.endpoint : undefined,
    token: typeof args.token === 'string' ? args.token : process.env.HF_TOKEN,
  });
}

async function inspect(spec: string, args: Args): Promise<void> {
  const src = source(spec, args);
  const info = parseQwen2Config(await readJson(src, 'config.json'));
  const c = info.config;
  const index = await indexCheckpoint(src);
  const dtypes = new Map<string, number>();
  for (const e of index.entries.values()) dtypes.set(e.dtype, (dtypes.get(e.dtype) ?? 0) + e.end - e.begin);
  console.log(`${src.label}: Qwen2ForCausalLM, ${(paramCount(c) / 1e6).toFixed(1)} M parameters`);
  console.log(
    `  layers ${c.layers}, hidden ${c.hidden}, heads ${c.heads} (kv ${c.kvHeads}, dim ${c.headDim}), MLP ${c.intermediate}, vocab ${c.vocabSize}`,
  );
  console.log(
    `  RoPE θ ${c.ropeTheta}, RMSNorm eps ${c.rmsEps}, ${c.tiedEmbeddings ? 'tied' : 'untied'} head, context ${info.maxPositionEmbeddings}`,
  );
  console.log(
    `  weights: ${index.files.length} file(s), ${index.entries.size} tensors, ${[...dtypes].map(([d, b]) => `${d} ${fmtBytes(b)}`).join(', ')}`,
  );
  try {
    const tok = await loadHfTokenizer(src);
    console.log(
      `  tokenizer: ${tok.tokenizer.vocabSize} ids, eos ${tok.specialTokens.eos ?? '(none)'}, stop ids ${tok.stopTokenIds.join(', ')}, chat template ${tok.chatTemplate ? 'yes' : 'no'}`,
    );
  } catch (e) {
    console.log(`  tokenizer: ${(e as Error).message}`);
  }
  const seqLen = Math.min(intArg(args, 'seq', 2048), info.maxPositionEmbeddings);
  const base = (typeof args.base === 'string' ? args.base : 'int4-b32') as BaseFormat;
  if (base !== 'f32' && base !== 'f16' && !(QUANT_FORMATS as readonly string[]).includes(base))
    throw new UsageError(`--base must be f32, f16 or one of ${QUANT_FORMATS.join(', ')}`);
  const rank = intArg(args, 'rank', 16);
  const budget = numArg(args, 'budget-gb', 8, { above: 0 }) * 2 ** 30;
  const settings = {
    baseFormat: base,
    lora: { rank, alpha: 2 * rank, targets: [...LORA_TARGETS] },
    rolloutBatch: intArg(args, 'rollout', 8),
    seqLen,
    microBatch: intArg(args, 'micro', 4),
    recompute: true,
    lmHeadChunk: 8192,
    klReference: true,
    // An f32 base trains through the merged learner (rollout_quant none); int8 / int4 through FrozenBase.
    mergedLearner: base === 'f32',
  };
  // Limits of a typical discrete GPU's WebGPU adapter; the lab checks the real ones before a run.
  const plan = checkMemory({ ...c, maxSeqLen: Math.min(c.maxSeqLen, seqLen) }, settings, {
    maxBufferSize: 4 * 2 ** 30,
    maxStorageBufferBindingSize: 2 ** 31 - 4,
    budgetBytes: budget,
  });
  console.log(
    `memory plan (LoRA r${rank}, ${base} base, ${settings.rolloutBatch} rollouts × ${seqLen} tokens, micro-batch ${settings.microBatch}):\n${formatPlan(plan)}`,
  );
  if (args.load) {
    const weights = (typeof args.weights === 'string' ? args.weights : 'f32') as WeightFormat;
    if (weights !== 'f32' && weights !== 'f16' && !(QUANT_FORMATS as readonly string[]).includes(weights))
      throw new UsageError(`--weights must be f32, f16 or one of ${QUANT_FORMATS.join(', ')}`);
    if (weights === 'f16') {
      // f16 weights are only useful to the f16 kernels, which need the adapter's 'shader-f16'.
      const gpu = await sharedNodeGpu();
      if (!gpu.hasF16)
        throw f16Unavailable(gpu, '--weights f16', `--weights f32, or one of ${QUANT_FORMATS.join(', ')}`);
    }
    const bar = new Progress();
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const m = await importHfModel(src, {
      weights,
      onProgress: (p) => bar.update('loading', p.tensorsDone, p.tensorsTotal, fmtBytes(p.bytesDone)),
    });
    bar.clear();
    const s = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuS = (cpu.user + cpu.system) / 1e6;
    const mb = index.totalBytes / 2 ** 20;
    console.log(
      `loaded ${m.layout.tensors.length} tensors as ${weights} in ${s.toFixed(2)} s (${(mb / s).toFixed(1)} MiB/s; ${cpuS.toFixed(2)} CPU-s, ${(mb / cpuS).toFixed(1)} MiB per CPU-second)`,
    );
  }
}

async function exportCmd(args: Args): Promise<void> {
  const out = args.out;
  if (typeof out !== 'string') throw new UsageError('--out DIR is required (see --help)');
  const role = typeof args.model === 'string' ? args.model : 'coder';
  if (role !== 'coder' && role !== 'tester') throw new UsageError(`--model must be coder or tester, got '${role}'`);
  const dir =
    typeof args.checkpoint === 'string'
      ? args.checkpoint
      : typeof args.run === 'string'
        ? join(args.run, 'latest', role)
        : undefined;
  if (!dir) throw new UsageError('give --run or --checkpoint (see --help)');
  const dtype = (typeof args.dtype === 'string' ? args.dtype : 'f32') as ExportDtype;
  if (!['f32', 'bf16', 'f16'].includes(dtype)) throw new UsageError(`--dtype must be f32, bf16 or f16, got '${dtype}'`);
  const ck = await loadCheckpointDir(dir);
  const tokenizerFiles =
    ck.tokenizerJson === undefined
      ? undefined
      : labTokenizerFiles(ck.tokenizerJson, {
          eos: SPECIAL_TOKENS.end,
          pad: SPECIAL_TOKENS.pad,
          modelMaxLength: ck.config.maxSeqLen,
        });
  const shardMb = args['max-shard-mb'] === undefined ? undefined : intArg(args, 'max-shard-mb', 0);
  // The sampler's default stops: <|end|> closes an answer, <|endoftext|> a document.
  const tok = ck.tokenizerJson === undefined ? undefined : loadTokenizer(ck.tokenizerJson);
  const eosTokenIds = tok ? [SPECIAL_TOKENS.end, SPECIAL_TOKENS.eos].map((t) => tok.requireId(t)) : undefined;
  const files = exportHfModel(ck.layout, ck.params, {
    eosTokenIds,
    dtype,
    maxShardBytes: shardMb === undefined ? undefined : shardMb * 2 ** 20,
    tokenizerFiles,
  });
  await mkdir(out, { recursive: true });
  for (const [name, data] of files) await writeFile(join(out, name), data);
  const back = await importHfModel(dirSource(out));
  const diff = maxRelDiff(back.params, ck.params);
  console.log(
    `wrote ${out}: ${files.size} files, ${ck.layout.paramCount} params in ${dtype}${tokenizerFiles ? ', tokenizer' : ''}; re-imported: max rel diff ${diff.toExponential(2)} from the checkpoint${dtype === 'f32' ? '' : ` (${dtype} rounding)`}`,
  );
  if (dtype === 'f32' && diff !== 0) throw new Error('re-imported f32 weights differ from the checkpoint');
}

async function main(): Promise<void> {
  const [cmd, ...rest] = process.argv.slice(2).filter((a) => a !== '--');
  if (!cmd || cmd === '--help') return void console.log(helpText(HF_SPEC));
  if (cmd === 'inspect') {
    const parsed = parseCli(HF_INSPECT_SPEC, rest);
    if (!parsed) return;
    const [spec, extra] = parsed.positional;
    if (!spec || extra !== undefined)
      throw new UsageError('inspect needs one SRC: a folder or hub:owner/name (see --help)');
    return inspect(spec, parsed.args);
  }
  if (cmd === 'export') {
    const parsed = parseCli(HF_EXPORT_SPEC, rest);
    if (!parsed) return;
    return exportCmd(parsed.args);
  }
  throw new UsageError(
    `unknown sub-command '${cmd}'${didYouMean(cmd, HF_SPEC.subcommands!)}: expected ${HF_SPEC.subcommands!.join(', ')} (npm run hf -- --help)`,
  );
}

runMain(main);
