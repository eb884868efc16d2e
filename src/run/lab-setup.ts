// Builds the trainer's inputs from a TrainConfig, independent of platform: problems and mutants from the curriculum,
// fresh (seeded) micro checkpoints with a curriculum-trained tokenizer, and Coder/Tester policies.
import { checkLabLimits } from './lab-limits';
import type { Gpu } from '../gpu/runtime';
import type { Mutant, Problem } from '../tasks/types';
import { generateCurriculum, generateHeldoutTasks } from '../tasks/generate';
import { selectTrainPart, trainPartIds } from '../tasks/split';
import type { Instance } from '../tasks/family';
import { buildCoderCorpus } from '../rl/corpus';
import { preset as modelPreset, type PresetName as ModelPresetName } from '../model/config';
import { buildLayout } from '../model/layout';
import { initParams } from '../model/init';
import { trainTokenizer } from '../model/tokenizer-train';
import type { LoadedCheckpoint } from '../model/checkpoint';
import type { TrainConfig } from '../rl/config';
import type { PolicyFiles } from '../rl/policy';
import { LabPolicy } from '../rl/lab-policy';
import { deriveSeed } from '../rl/rng';
import { modeRules } from '../rl/modes';

export interface Curriculum {
  instances: Instance[];
  train: Problem[];
  /** One instance of each task no curriculum instance poses (generate.ts): outside `instances`, evaluation only. */
  heldout: Problem[];
  /** Instances held out by instance: most pose a training task under another function name. */
  renamed: Problem[];
  heldoutFamily: Problem[];
  mutants: Map<string, Mutant[]>;
}

const curricula = new Map<string, Curriculum>();

/** The built-in curriculum, optionally restricted to some families (held-out families are always kept apart). */
export function loadCurriculum(families: readonly string[] = []): Curriculum {
  const key = families.join(',');
  const hit = curricula.get(key);
  if (hit) return hit;
  const all = generateCurriculum();
  const instances = families.length ? all.filter((i) => families.includes(i.problem.family)) : all;
  if (!instances.length) throw new Error(`no curriculum problems for families: ${families.join(', ')}`);
  const problems = instances.map((i) => i.problem);
  const newTasks = generateHeldoutTasks({ families: [...new Set(problems.map((p) => p.family))] });
  const cur: Curriculum = {
    instances,
    train: problems.filter((p) => p.split === 'train'),
    heldout: newTasks.map((i) => i.problem),
    renamed: problems.filter((p) => p.split === 'renamed'),
    heldoutFamily: problems.filter((p) => p.split === 'heldout-family'),
    mutants: new Map([...instances, ...newTasks].map((i) => [i.problem.id, i.mutants])),
  };
  curricula.set(key, cur);
  return cur;
}

/** The problems RL trains on: the curriculum's training split, or one part of it (tasks.train_part). */
export function trainingProblems(config: TrainConfig): Problem[] {
  const cur = loadCurriculum(config.tasks.families);
  return selectTrainPart(cur.train, trainPartIds(cur.train), config.tasks.train_part ?? 'all');
}

/** The problems a run trains and evaluates on. */
export interface RunProblems {
  trainProblems: Problem[];
  heldout: Problem[];
  renamed: Problem[];
  heldoutFamily: Problem[];
  mutants: Map<string, Mutant[]>;
}

export function runProblems(config: TrainConfig): RunProblems {
  const cur = loadCurriculum(config.tasks.families);
  return {
    trainProblems: trainingProblems(config),
    heldout: cur.heldout,
    renamed: cur.renamed,
    heldoutFamily: cur.heldoutFamily,
    mutants: cur.mutants,
  };
}

/** Sequence length a config needs: the longest prompt plus the longest completion. */
export function neededSeqLen(c: TrainConfig): number {
  return c.rollout.max_prompt_length + Math.max(c.rollout.max_completion_length, c.rollout.max_test_completion_length);
}

const tokenizerCache = new Map<number, string>();

/** A byte-level BPE tokenizer learned from a deterministic sample of the coder corpus. */
export function curriculumTokenizerJson(vocabSize: number, sampleSize = 400): string {
  const hit = tokenizerCache.get(vocabSize);
  if (hit) return hit;
  const { instances } = loadCurriculum();
  const step = Math.max(1, Math.floor(instances.length / sampleSize));
  const sample = instances.filter((_, i) => i % step === 0);
  const texts = buildCoderCorpus(sample, { seed: 7, bugRate: 0.3 }).map((e) => e.prompt + e.completion);
  const json = JSON.stringify(trainTokenizer(texts, { vocabSize }));
  tokenizerCache.set(vocabSize, json);
  return json;
}

/** A freshly initialised checkpoint of a model preset (used by the micro preset and tests). */
export function freshCheckpoint(preset: ModelPresetName, seed: number, maxSeqLen: number): LoadedCheckpoint {
  const base = modelPreset(preset);
  const config = modelPreset(preset, { maxSeqLen: Math.max(base.maxSeqLen, maxSeqLen) });
  const layout = buildLayout(config);
  return {
    config,
    layout,
    params: initParams(layout, seed),
    metadata: {},
    tokenizerJson: curriculumTokenizerJson(config.vocabSize),
  };
}

export interface PolicySources {
  coder: LoadedCheckpoint;
  tester: LoadedCheckpoint;
}

export interface Policies {
  coder: LabPolicy;
  tester: LabPolicy;
}

/** Coder and Tester (the same object in self-play), restored from saved files when resuming. */
export function buildPolicies(
  gpu: Gpu,
  c: TrainConfig,
  src: PolicySources,
  saved?: { coder: PolicyFiles; tester?: PolicyFiles },
): Policies {
  // A device below the preset's needs is refused here, naming the limit, before any buffer exists.
  const floats = Math.max(src.coder.layout.totalFloats, src.tester.layout.totalFloats);
  checkLabLimits(gpu, c, floats);
  const base = (name: string, ck: LoadedCheckpoint) => ({
    name,
    rolloutQuant: c.rollout.rollout_quant,
    maxPromptTokens: c.rollout.max_prompt_length,
    reference: ck.params,
  });
  const make = (name: string, ck: LoadedCheckpoint, files?: PolicyFiles) =>
    files
      ? LabPolicy.restore(gpu, files, base(name, ck))
      : LabPolicy.create(gpu, { ...base(name, ck), checkpoint: ck });
  const coder = make('coder', src.coder, saved?.coder);
  if (modeRules(c.mode).testerIsCoder) return { coder, tester: coder };
  return { coder, tester: make('tester', src.tester, saved?.tester) };
}

/** Sources for a config with no checkpoints: two fresh models with different seeds. */
export function freshSources(c: TrainConfig): PolicySources {
  const len = neededSeqLen(c);
  const p = c.model.preset as ModelPresetName;
  return {
    coder: freshCheckpoint(p, deriveSeed(c.seed, 'coder-init'), len),
    tester: freshCheckpoint(p, deriveSeed(c.seed, 'tester-init'), len),
  };
}
