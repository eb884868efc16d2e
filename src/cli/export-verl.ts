// `npm run export -- --run runs/NAME --verl OUT/` (or `--preset P`, `--tasks FILE.jsonl`): a lab experiment as a run of
// the published Code-A1 recipe on verl / Ray (train/val parquet, config.yaml, launch.sh, README.md). The exporter
// itself is platform-neutral (src/export/verl); this file reads the inputs and writes the folder.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile, chmod } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { intArg, setOverrides, UsageError } from './args';
import { parseCli } from './cli-spec';
import { EXPORT_VERL_SPEC } from './help/model-specs';
import { presetConfig, type DeepPartial, type PresetName, type TrainConfig } from '../rl/config';
import { RunDir } from '../run/run-store';
import { loadHfTokenizer } from '../model/hf/tokenizer';
import { readJson, type HfSource } from '../model/hf/source';
import { dirSource } from '../model/hf/source-node';
import { hubSource } from '../model/hf/source-hub';
import type { ChatCounter } from '../export/verl/prompt-lengths';
import { NodeRunStore } from '../run/run-store-node';
import { importJsonl } from '../tasks/importers';
import {
  curriculumProblems,
  exportVerl,
  RELEASE_MODEL,
  splitImported,
  VERL_FILES,
  type ProblemSets,
} from '../export/verl/index';

/** An HF-format model directory (made absolute, since launch.sh runs from the release's folder) or a Hub id. */
function modelPath(v: string | boolean | undefined, flag: string): string {
  if (typeof v !== 'string') return RELEASE_MODEL;
  if (existsSync(v)) {
    const cfg = join(v, 'config.json');
    const hf = existsSync(cfg) && /"(model_type|architectures)"\s*:/.test(readFileSync(cfg, 'utf8'));
    if (!hf)
      throw new Error(`${flag} ${v}: not a Hugging Face model directory (it needs a config.json with model_type)`);
    return resolve(v);
  }
  if (!/^[\w.-]+\/[\w.-]+$/.test(v))
    throw new Error(`${flag} ${v}: neither an existing directory nor a Hugging Face id (owner/name)`);
  return v;
}

/**
 * A model's tokenizer and chat template, as the release applies them (apply_chat_template with the generation prompt,
 * then encode), and its context length: from --tokenizer, the model folder, or the Hub.
 */
async function chatCounter(model: string, override: string | undefined): Promise<ChatCounter> {
  const src: HfSource = override
    ? dirSource(resolve(override))
    : existsSync(model)
      ? dirSource(model)
      : hubSource({ repo: model, token: process.env.HF_TOKEN });
  try {
    const tok = await loadHfTokenizer(src);
    const cfg = (await readJson(src, 'config.json')) as { max_position_embeddings?: unknown } | undefined;
    const mp = cfg?.max_position_embeddings;
    return {
      label: override ? basename(resolve(override)) : basename(model),
      count: (m) => tok.encodeChat(m, { addGenerationPrompt: true }).length,
      maxPositions: typeof mp === 'number' ? mp : undefined,
    };
  } catch (e) {
    throw new Error(
      `cannot count the prompts' tokens with ${src.label}'s tokenizer (${(e as Error).message}); give --tokenizer DIR, a folder with the model's tokenizer.json, tokenizer_config.json and config.json`,
    );
  }
}

export async function exportVerlCli(argv: string[]): Promise<void> {
  const parsed = parseCli(EXPORT_VERL_SPEC, argv);
  if (!parsed) return;
  const { args } = parsed;
  const out = args.verl;
  if (typeof out !== 'string') throw new UsageError('--verl OUT/ is required (see --help)');
  const runDir = typeof args.run === 'string' ? args.run : undefined;
  const tasks = typeof args.tasks === 'string' ? args.tasks : undefined;
  if (!runDir && !tasks && typeof args.preset !== 'string')
    throw new UsageError('give --run, --preset or --tasks (see --help)');

  let config: TrainConfig;
  if (runDir) {
    if (args.set || args.preset)
      throw new Error('--set and --preset apply without --run: a run exports the config it was trained with');
    const c = await new RunDir(new NodeRunStore(runDir)).readConfig();
    if (!c) throw new Error(`--run ${runDir}: no config.json there (is it a run directory?)`);
    config = c;
  } else {
    config = presetConfig(
      ((args.preset as string) ?? (tasks ? 'paper' : 'tiny')) as PresetName,
      setOverrides(args) as DeepPartial<TrainConfig>,
    );
  }

  let sets: ProblemSets;
  if (tasks) {
    const { items, errors } = importJsonl(await readFile(tasks, 'utf8'));
    for (const e of errors) console.error(`${tasks}: ${e.message}`);
    if (errors.length && !items.length) throw new Error(`${tasks}: no problem could be read`);
    const frac = args['val-fraction'] === undefined ? 0.2 : Number(args['val-fraction']);
    sets = splitImported(
      items.map((i) => i.problem),
      frac,
      config.seed,
      basename(tasks),
    );
  } else sets = curriculumProblems(config);

  const name = typeof args.name === 'string' ? args.name : basename(resolve(runDir ?? out));
  const steps = args.steps === undefined ? undefined : intArg(args, 'steps', 0);
  const t0 = performance.now();
  const nodes = intArg(args, 'nodes', 1);
  const coderModel = modelPath(args['coder-model'], '--coder-model');
  const testerModel = modelPath(args['tester-model'], '--tester-model');
  const tokOverride = typeof args.tokenizer === 'string' ? args.tokenizer : undefined;
  const coderTok = await chatCounter(coderModel, tokOverride);
  const testerTok = testerModel === coderModel || tokOverride ? coderTok : await chatCounter(testerModel, tokOverride);
  const { files, warnings } = exportVerl(config, sets, {
    coderModel,
    testerModel,
    tokenizers: { coder: coderTok, tester: testerTok },
    nodes,
    gpusPerNode: intArg(args, 'gpus-per-node', 8),
    experimentName: name,
    steps,
    releaseHparams: args['release-hparams'] === true,
    trainCount: sets.train.length,
  });
  await mkdir(out, { recursive: true });
  for (const f of VERL_FILES) await writeFile(join(out, f), files[f]);
  await chmod(join(out, 'launch.sh'), 0o755);
  const size = (f: string) => `${(files[f].byteLength / 1024).toFixed(1)} KiB`;
  console.log(
    `wrote ${out}: train.parquet (${sets.train.length} problems, ${size('train.parquet')}), val.parquet (${sets.val.length}, ${size('val.parquet')}), ` +
      `config.yaml, launch.sh, preflight.py, README.md from ${runDir ?? sets.origin} (${((performance.now() - t0) / 1000).toFixed(2)} s)`,
  );
  for (const w of warnings) console.log(`note: ${w}`);
  const env = 'export CODE_A1_DIR=/path/to/Code-A1/Code-A1 SANDBOX_FUSION_ENDPOINT=http://HOST:8080';
  const sh = join(out, 'launch.sh');
  console.log(
    nodes > 1
      ? `run it (this folder and the release at the same paths on every node): ${env}, then\n  head node: bash ${sh} ray-head\n  each other node: bash ${sh} ray-worker HEAD_IP:6379\n  head node: bash ${sh}`
      : `run it: ${env}; bash ${sh}`,
  );
}
