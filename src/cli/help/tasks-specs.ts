// Help and flags of `npm run tasks` and its sub-commands (stats, verify, evolve).
import type { CliSpec } from '../cli-spec';

export const TASKS_SPEC: CliSpec = {
  command: 'npm run tasks',
  summary: 'the curriculum and task files: statistics, verification in the sandbox, test-suite evolution',
  usage: ['npm run tasks -- stats|verify|evolve ... (each has its own --help)'],
  flags: [],
  subcommands: ['stats', 'verify', 'evolve'],
  examples: ['npm run tasks -- stats --check all', 'npm run tasks -- verify fixtures/humaneval-mini.jsonl'],
};

export const TASKS_STATS_SPEC: CliSpec = {
  command: 'npm run tasks -- stats',
  summary: 'curriculum statistics: instances and the tasks they pose per split, prompt and solution lengths',
  usage: [
    'npm run tasks -- stats [--preset NAME] [--seed N] [--per-family N] [--tokenizer FILE | --train-tokenizer VOCAB]',
    '                       [--check N|all] [--corpus DIR [--bug-rate 0.2] [--k 8]]',
  ],
  flags: [
    { name: 'preset', value: 'NAME', help: "only the preset's families (default: every family)" },
    { name: 'seed', value: 'N', help: 'curriculum seed' },
    { name: 'per-family', value: 'N', help: 'instances per family' },
    { name: 'tokenizer', value: 'FILE', help: "count lengths in this tokenizer's tokens (default: the first shipped)" },
    { name: 'train-tokenizer', value: 'VOCAB', help: 'train a tokenizer of this vocabulary size to count with' },
    {
      name: 'check',
      value: 'N|all',
      help: "run N (or all) instances' styles and mutants in the sandbox; count per family the mutants that pass the docstring example but fail a hidden test",
    },
    { name: 'corpus', value: 'DIR', help: 'write the warm-start corpora (JSONL) to DIR' },
    {
      name: 'bug-rate',
      value: 'X',
      help: 'with --corpus: share of Tester examples on a buggy candidate (default 0.2)',
    },
    { name: 'k', value: 'N', help: 'with --corpus: tests per Tester example (default 8)' },
  ],
  examples: ['npm run tasks -- stats --preset tiny', 'npm run tasks -- stats --check all'],
};

export const TASKS_VERIFY_SPEC: CliSpec = {
  command: 'npm run tasks -- verify',
  summary: "run a HumanEval- or MBPP-format file's reference solutions against its own tests in the sandbox",
  usage: ['npm run tasks -- verify FILE.jsonl [--timeout MS] [--workers N]'],
  positional: 'FILE.jsonl',
  flags: [
    { name: 'timeout', value: 'MS', help: 'time limit per problem (default 5000)' },
    { name: 'workers', value: 'N', help: 'sandbox workers (default: cores - 1)' },
  ],
  notes: ['Malformed lines count as failed; ends with "N passed, M failed".'],
  examples: ['npm run tasks -- verify fixtures/humaneval-mini.jsonl'],
};

export const TASKS_EVOLVE_SPEC: CliSpec = {
  command: 'npm run tasks -- evolve',
  summary: "evolve each problem's test suite from a candidate pool's execution and write JSONL with lineage",
  usage: [
    'npm run tasks -- evolve FILE.jsonl --rounds R [--problems N] [--from hidden|public] [--out FILE] [--timeout MS]',
    'npm run tasks -- evolve --preset micro|tiny|paper --rounds R ...',
  ],
  positional: 'FILE.jsonl (HumanEval or MBPP records), unless --preset is given',
  flags: [
    { name: 'preset', value: 'P', help: "evolve the preset's training problems instead of a file" },
    { name: 'rounds', value: 'R', help: 'evolution rounds (default 2)' },
    { name: 'problems', value: 'N', help: 'problems to evolve (default 4)' },
    { name: 'from', value: 'hidden|public', help: 'start from the hidden tests (default) or the docstring example' },
    { name: 'out', value: 'FILE', help: 'output JSONL (default evolved-<preset|file>.jsonl)' },
    { name: 'timeout', value: 'MS', help: 'time limit per judged suite (default 2000)' },
  ],
  notes: [
    'Keeps tests that separate candidates, drops redundant ones; prints the pool pass rate, suite size and ' +
      'redundancy before and after.',
  ],
  examples: ['npm run tasks -- evolve --preset tiny --rounds 2 --problems 8'],
};
