// Exports a lab experiment as a run of the published Code-A1 recipe on verl / Ray: train.parquet, val.parquet,
// config.yaml, launch.sh and README.md, as bytes by file name. Platform-neutral: the CLI writes them to a folder,
// the lab page zips them for download.
import type { Problem } from '../../tasks/types';
import { generateHeldoutTasks, generateProblems } from '../../tasks/generate';
import { selectTrainPart, trainPartIds, type TrainPart } from '../../tasks/split';
import { Rng } from '../../tasks/rng';
import { buildVerlConfig, type VerlConfigOptions } from './config-yaml';
import { problemToRow, writeRows, type ProblemSets } from './dataset';
import { launchScript, exportReadme } from './launch';
import { PREFLIGHT_PY } from './preflight-py';
import { measurePrompts, type ChatCounter } from './prompt-lengths';

export { RELEASE_MODEL } from './config-yaml';
export type { ProblemSets } from './dataset';

/**
 * A config's curriculum: the training instances RL uses (tasks.train_part) for train.parquet; for val.parquet the
 * held-out tasks (never trained on), the held-out families and the renamed instances (data_source lab_heldout,
 * lab_heldout_family, lab_renamed).
 */
export function curriculumProblems(config: {
  preset: string;
  tasks: { families: string[]; train_part?: TrainPart };
}): ProblemSets {
  const families = config.tasks.families;
  const all = generateProblems(families.length ? { families } : {});
  const part = config.tasks.train_part ?? 'all';
  return {
    train: selectTrainPart(all, trainPartIds(all), part),
    val: [
      ...generateHeldoutTasks(families.length ? { families } : {}).map((i) => i.problem),
      ...all.filter((p) => p.split !== 'train'),
    ],
    origin:
      `the ${config.preset} preset's curriculum (${families.length ? families.join(', ') : 'all families'}` +
      `${part === 'all' ? '' : `; the ${part} part of its training instances`})`,
  };
}

/** Imported problems (HumanEval / MBPP JSONL): a seeded share goes to val.parquet, the rest to train.parquet. */
export function splitImported(
  problems: readonly Problem[],
  valFraction: number,
  seed: number,
  origin: string,
): ProblemSets {
  if (!(valFraction >= 0 && valFraction < 1)) throw new Error(`--val-fraction must be in [0, 1), got ${valFraction}`);
  if (!problems.length) throw new Error(`${origin} holds no problems`);
  const order = Rng.from(seed, 'verl-val').shuffle(problems.map((_, i) => i));
  const nVal = Math.min(problems.length - 1, Math.round(valFraction * problems.length));
  const val = new Set(order.slice(0, nVal));
  return { train: problems.filter((_, i) => !val.has(i)), val: problems.filter((_, i) => val.has(i)), origin };
}

export interface ExportOptions extends VerlConfigOptions {
  /**
   * The Coder's and the Tester's tokenizers (with their chat templates): every prompt is counted with them and the
   * limits sized to fit. Without them only a rough character count warns.
   */
  tokenizers?: { coder: ChatCounter; tester: ChatCounter };
}

export interface VerlExport {
  files: Record<string, Uint8Array>;
  warnings: string[];
}

export const VERL_FILES = [
  'train.parquet',
  'val.parquet',
  'config.yaml',
  'launch.sh',
  'preflight.py',
  'README.md',
] as const;

/** Characters per token of a code BPE such as Qwen's (a generous upper end, so a warning means "surely too short"). */
const CHARS_PER_TOKEN = 4;

/**
 * The lab's lengths count its own small tokenizer's tokens; for the cluster's models the same numbers may be too
 * short, and the release drops longer prompts (filter_overlong_prompts) and cuts responses.
 */
function lengthWarnings(sets: ProblemSets, flat: Record<string, unknown>): string[] {
  const all = [...sets.train, ...sets.val];
  const prompt = Math.max(...all.map((p) => problemToRow(p, false).prompt.reduce((n, t) => n + t.content.length, 0)));
  const solution = Math.max(...all.map((p) => p.solution.length));
  const out: string[] = [];
  const maxPrompt = Number(flat['data.max_prompt_length']);
  const maxResponse = Number(flat['data.max_response_length']);
  if (prompt / CHARS_PER_TOKEN > maxPrompt)
    out.push(
      `data.max_prompt_length ${maxPrompt} (lab tokens) is below the longest Coder prompt (${prompt} characters, about ${Math.ceil(prompt / CHARS_PER_TOKEN)}+ tokens); the release filters out longer prompts — raise rollout.max_prompt_length`,
    );
  if (solution / CHARS_PER_TOKEN > maxResponse)
    out.push(
      `data.max_response_length ${maxResponse} (lab tokens) is below the longest reference solution (${solution} characters); the Coder writes whole functions — raise rollout.max_completion_length`,
    );
  return out;
}

export function exportVerl(config: object, sets: ProblemSets, o: ExportOptions): VerlExport {
  if (!sets.train.length) throw new Error(`no training problems in ${sets.origin}`);
  if (!sets.val.length) throw new Error(`no validation problems in ${sets.origin}`);
  const promptLengths = o.tokenizers && measurePrompts(sets, o.tokenizers.coder, o.tokenizers.tester, o.testerModel);
  const cfg = buildVerlConfig(config, { ...o, trainCount: o.trainCount ?? sets.train.length, promptLengths });
  const batch = Number(cfg.flat['data.train_batch_size']);
  // verl's train loader drops the incomplete last batch and asserts that at least one batch is left.
  if (sets.train.length < batch)
    throw new Error(
      `${sets.train.length} training problems make no full batch of ${batch} (rollout.problems_per_step); verl drops incomplete batches — use fewer problems per step (--set rollout.problems_per_step=N) or more problems`,
    );
  if (!promptLengths)
    cfg.warnings.push(
      "prompt lengths were not counted with the model's tokenizer (none given): the release drops Coder prompts over data.max_prompt_length and stops at a Tester prompt over other.data.max_prompt_length",
      ...lengthWarnings(sets, cfg.flat),
    );
  const enc = new TextEncoder();
  const files: Record<string, Uint8Array> = {
    'train.parquet': writeRows(
      sets.train.map((p) => problemToRow(p, true)),
      true,
    ),
    'val.parquet': writeRows(
      sets.val.map((p) => problemToRow(p, false)),
      false,
    ),
    'config.yaml': enc.encode(cfg.yaml),
    'launch.sh': enc.encode(launchScript(o)),
    'preflight.py': enc.encode(PREFLIGHT_PY),
    'README.md': enc.encode(exportReadme(o, sets, cfg)),
  };
  return { files, warnings: cfg.warnings };
}
