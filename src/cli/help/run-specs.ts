// Help and flags of the commands that train and evaluate models: train, eval, pretrain.
import type { CliFlag, CliSpec } from '../cli-spec';
import { configHelp } from '../args';
import { DEFAULT_SPLITS, HELD_OUT_SPLITS } from '../../run/eval-splits';

/** Hugging Face model flags shared by train and eval (parsed by hf-lab.ts). */
export const HF_MODEL_FLAGS: CliFlag[] = [
  { name: 'coder-model', value: 'DIR', help: "a Hugging Face Qwen2 folder: LoRA on the release's chat prompts" },
  { name: 'tester-model', value: 'DIR', help: "the Tester's Hugging Face folder (default: the Coder's)" },
  { name: 'lora-rank', value: 'N', help: 'LoRA rank (default 16)' },
  { name: 'lora-alpha', value: 'X', help: 'LoRA alpha (default 2 x rank)' },
  { name: 'micro-batch', value: 'N', help: 'rows per training micro-batch (default 4)' },
  { name: 'budget-gb', value: 'X', help: 'GPU memory budget of the memory plan, GiB (default 8)' },
];

export const TRAIN_SPEC: CliSpec = {
  command: 'npm run train',
  summary: 'headless training (code-a1, golden, self-play, tcs or ace) into a crash-safe run directory',
  usage: [
    'npm run train -- [--preset micro|tiny|paper] [--mode MODE] [--steps N] [--seed S] [--out runs/NAME] [--set k=v ...]',
    'npm run train -- --resume runs/NAME --steps N',
    'npm run train -- --coder-model DIR [--tester-model DIR] [--lora-rank 16] ... --out runs/NAME',
  ],
  flags: [
    { name: 'preset', value: 'micro|tiny|paper', help: 'the config preset (default tiny)' },
    { name: 'mode', value: 'MODE', help: "code-a1 | golden | self-play | tcs | ace (default: the preset's, code-a1)" },
    { name: 'steps', value: 'N', help: 'training steps to run in this invocation (default 20)' },
    { name: 'seed', value: 'S', help: "random seed (default: the preset's, 1)" },
    { name: 'out', value: 'DIR', help: 'the run directory to create (default runs/<date>)' },
    { name: 'resume', value: 'DIR', help: 'continue a run exactly where its last committed step left it' },
    {
      name: 'force',
      help: 'with --out: move a run already there aside to DIR.replaced-TIME/ and start anew (refused otherwise)',
    },
    { name: 'force-delete', help: 'with --out: delete a run already there and start anew' },
    { name: 'set', value: 'group.key=value', help: 'override a config field (repeatable; fields listed below)' },
    {
      name: 'hidden-tests',
      value: 'FILE.jsonl',
      help: "HumanEval/MBPP records (e.g. `tasks evolve` output) replacing the named training problems' hidden tests",
    },
    { name: 'eval-every', value: 'N', help: 'evaluate every N steps, appending eval.jsonl (default 0: never)' },
    { name: 'eval-problems', value: 'N', help: 'held-out problems per evaluation (default 0: all)' },
    { name: 'eval-samples', value: 'N', help: 'Coder samples per problem per evaluation (default 8)' },
    {
      name: 'eval-splits',
      value: 'S,S',
      help: `splits to evaluate, among ${HELD_OUT_SPLITS.join(', ')} (default ${DEFAULT_SPLITS}: tasks no training instance poses, and whole held-out families; renamed: instances held out by instance, mostly renamed training tasks)`,
    },
    {
      name: 'warmup',
      help: "compile step 0's shaders ahead, off the main thread (on SwiftShader those kernels run 3-10% slower)",
    },
    ...HF_MODEL_FLAGS,
  ],
  notes: [
    'Writes config.json, metrics.jsonl (one record per step), mistake-book.json, rollouts/, latest/ and checkpoints/. ' +
      'A run directory is a record: --out refuses one that holds a run (--resume continues it, --force or ' +
      '--force-delete replace it), and every flag is checked before anything is written. --debug prints stack traces.',
  ],
  examples: [
    'npm run train -- --preset tiny --mode code-a1 --steps 50 --seed 1 --out runs/a1',
    'npm run train -- --resume runs/a1 --steps 10',
    'npm run train -- --preset micro --set grpo.beta=0.01 --eval-every 10 --out runs/beta',
  ],
  extra: configHelp,
};

export const EVAL_SPEC: CliSpec = {
  command: 'npm run eval',
  summary: 'held-out evaluation of a run or a model, each figure with a 95% bootstrap interval',
  usage: [
    'npm run eval -- --run runs/NAME [--problems N] [--samples n] [--splits S,S] [--out FILE]',
    'npm run eval -- --preset tiny | --coder DIR --tester DIR | --coder-model DIR',
  ],
  flags: [
    { name: 'run', value: 'DIR', help: "evaluate a run's latest checkpoints" },
    { name: 'preset', value: 'P', help: "evaluate the preset's shipped models (tiny: the SFT-half warm-start)" },
    { name: 'coder', value: 'DIR', help: 'a Coder checkpoint folder' },
    { name: 'tester', value: 'DIR', help: 'a Tester checkpoint folder' },
    { name: 'problems', value: 'N', help: 'problems per split (default 0: all)' },
    { name: 'samples', value: 'n', help: 'Coder samples per problem at T 0.7 / top-p 0.95 (default 8)' },
    { name: 'seed', value: 'S', help: 'sampling seed' },
    { name: 'out', value: 'FILE', help: 'where eval.json goes (default: the run folder, else eval.json)' },
    {
      name: 'splits',
      value: 'S,S',
      help: 'splits to evaluate, held-out or training parts (an unknown name lists them)',
    },
    { name: 'no-codet', help: 'skip CodeT-style selection (halves the cost)' },
    { name: 'mutant-groups', value: 'g', help: 'mutant groups per problem for mut@k' },
    { name: 'show', value: 'N', help: "print the greedy program of each split's first N problems" },
    { name: 'resample', value: 'problems|tasks', help: 'the bootstrap unit (default problems)' },
    ...HF_MODEL_FLAGS,
  ],
  notes: [
    'Prints Coder pass@1 (sampled and greedy), Tester validity, pass@k / mut@k / Mul as UnLeakedTestBench defines ' +
      'them, the white-box mutation score and CodeT selection; writes eval.json with per-problem counts.',
  ],
  examples: ['npm run eval -- --run runs/a1', 'npm run eval -- --preset tiny --samples 4 --no-codet'],
};

export const PRETRAIN_SPEC: CliSpec = {
  command: 'npm run pretrain',
  summary: "supervised warm-start of the Coder and the Tester on the curriculum's corpora (fixed seed)",
  usage: ['npm run pretrain -- [--preset micro|tiny] [--steps N] [--out DIR] [--init DIR --only coder|tester]'],
  flags: [
    { name: 'preset', value: 'micro|tiny', help: 'model size and curriculum (default tiny)' },
    { name: 'steps', value: 'N', help: 'SFT steps (default micro 400, tiny 700)' },
    { name: 'batch', value: 'N', help: 'examples per step (default micro 8, tiny 16)' },
    { name: 'lr', value: 'X', help: 'learning rate (default micro 5e-3, tiny 1.5e-3)' },
    { name: 'seed', value: 'S', help: 'seed (default 1)' },
    { name: 'bug-rate', value: 'X', help: 'share of Tester examples built on a buggy candidate (default 0.3)' },
    { name: 'tester-share', value: 'X', help: "share of Tester examples in the Coder's corpus (self-play)" },
    { name: 'out', value: 'DIR', help: 'output folder (default public/models/<preset>)' },
    { name: 'only', value: 'coder,tester', help: 'train only these models' },
    { name: 'init', value: 'DIR', help: 'continue from these models instead of a fresh init' },
    { name: 'part', value: 'all|sft', help: 'training instances in the corpus: all, or the SFT half (default all)' },
    { name: 'extra-families', value: 'F,F', help: 'families outside the preset added to the corpus only' },
    { name: 'families', value: 'F,F', help: "the curriculum families (default: the preset's)" },
  ],
  notes: ['Writes fp32 and int8 checkpoints, config.json, tokenizer.json, a loss curve and pretrain.json.'],
  examples: ['npm run pretrain -- --preset tiny', 'npm run pretrain -- --init public/models/tiny --only coder'],
};
