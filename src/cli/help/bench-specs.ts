// Help and flags of the benchmarks (`npm run bench:*`): each prints ratios against a baseline measured in the same run.
import type { CliSpec } from '../cli-spec';

export const BENCH_KERNELS_SPEC: CliSpec = {
  command: 'npm run bench:kernels',
  summary: 'matmul GFLOP/s (fast, naive and tiled in the same run); int8 / int4 / f16 decode matmuls against fp32',
  usage: ['[BENCH_ONLY=substr] [BENCH_IMPLS=quad,fast,...] [BENCH_TRIES=2] npm run bench:kernels'],
  flags: [],
  notes: [
    'Settings are environment variables: BENCH_SECONDS (time per figure, 0.25), BENCH_TRIES (best of, 2), ' +
      'BENCH_ONLY (cases whose "MxNxK form" contains it), BENCH_IMPLS, BENCH_TM / BENCH_WG (tune "fast"), ' +
      'BENCH_SKIP_QUANT=1, CODE_A1_ROBUST=1 (a Dawn instance with robustness on). On SwiftShader a second figure ' +
      'divides by the busy CPU time of its worker threads.',
  ],
  examples: ['npm run bench:kernels', 'BENCH_ONLY=" q" npm run bench:kernels'],
};

export const BENCH_ENGINE_SPEC: CliSpec = {
  command: 'npm run bench:engine',
  summary: 'forward, SFT, RL-update and decode tokens/s, min and median of repeats, per CPU-second beside wall',
  usage: ['npm run bench:engine -- [--preset micro|tiny] [--repeats 3] [--group 4] [--no-onnx]'],
  flags: [
    { name: 'preset', value: 'micro|tiny', help: 'model shape (default micro)' },
    { name: 'repeats', value: 'N', help: 'timed repeats after a warm-up (default 3)' },
    { name: 'batch-tokens', value: 'N', help: 'tokens per forward / SFT batch' },
    { name: 'new', value: 'N', help: 'decoded tokens per row' },
    { name: 'prompt', value: 'N', help: 'prompt tokens per decoded row' },
    { name: 'batches', value: 'B,B', help: 'decode batch sizes (default 1,16,64)' },
    { name: 'top-p', value: 'P', help: 'decode top-p' },
    { name: 'group', value: 'N', help: 'rollouts per prompt in the RL-update batch (GRPO groups; default 4)' },
    { name: 'no-onnx', help: 'skip the onnxruntime-web rows' },
  ],
  notes: ['Also prints per-kernel GPU time and int8 / int4 decode against fp32.'],
  examples: ['npm run bench:engine -- --preset tiny --repeats 3'],
};

export const BENCH_ATTENTION_SPEC: CliSpec = {
  command: 'npm run bench:attention',
  summary: "attention forward / backward at S = 64, 128, 256 over the same 1,024 tokens, against the model's matmul",
  usage: ['[BENCH_REPEATS=3] npm run bench:attention'],
  flags: [],
  notes: [
    'Prints GFLOP per worker CPU-second and cost per FLOP, min (median); decode attention, log-probs, xent, GRPO loss.',
    "Then the kernels with an 8-storage-buffer variant on this device and on one capped at 8 (WebGPU's default), interleaved, with the ratios.",
  ],
  examples: ['BENCH_REPEATS=5 npm run bench:attention'],
};

export const BENCH_STEP_SPEC: CliSpec = {
  command: 'npm run bench:step',
  summary: 'whole Code-A1 steps: CPU-seconds per phase, main-thread CPU, dispatches, shader compiles',
  usage: ['npm run bench:step -- [--preset tiny|micro] [--problems 4] [--steps 2] [--repeats 2] [--ab REF]'],
  flags: [
    { name: 'preset', value: 'tiny|micro', help: 'the preset (default tiny)' },
    { name: 'problems', value: 'N', help: 'problems per step (default 4)' },
    { name: 'seed', value: 'S', help: 'seed (default 1)' },
    { name: 'steps', value: 'N', help: 'steps per process; step 0 includes shader compiles (default 2)' },
    { name: 'repeats', value: 'N', help: 'fresh processes (default 2)' },
    {
      name: 'ab',
      value: 'REF',
      help: 'also run another git revision (a temporary worktree), interleaved; print ratios and whether tokens agree',
    },
    { name: 'no-warmup', help: 'compile shaders at first use instead of by the pipeline warm-up' },
  ],
  examples: ['npm run bench:step -- --preset tiny --ab main --repeats 2'],
};

export const BENCH_SANDBOX_SPEC: CliSpec = {
  command: 'npm run bench:sandbox',
  summary: 'judged suites/s in Pyodide (whole-interpreter reset on) against CPython process-per-candidate and warm',
  usage: ['npm run bench:sandbox -- [--suites 1000] [--python 200] [--workers N] [--repeats 3] [--no-ab]'],
  flags: [
    { name: 'suites', value: 'N', help: 'candidate suites (a candidate plus 8 asserts) per repeat (default 1000)' },
    { name: 'python', value: 'N', help: 'suites for the CPython baselines (default 200)' },
    { name: 'workers', value: 'N', help: 'Pyodide workers (default cores - 1)' },
    { name: 'repeats', value: 'N', help: 'repeats, min and median reported (default 3)' },
    { name: 'no-ab', help: "skip the A/B of the reset's restore methods" },
    {
      name: 'untrusted-tests',
      help: "judge the suites' Python-evaluated tests as untrusted Tester tests (each in an interpreter of its own) instead of as dataset tests",
    },
  ],
  notes: ["Prints per-CPU-second figures, the reset's cost and where a suite's CPU goes."],
  examples: ['npm run bench:sandbox -- --suites 400 --python 150 --repeats 3'],
};

export const BENCH_EVAL_JUDGING_SPEC: CliSpec = {
  command: 'npm run bench:eval-judging',
  summary: "the evaluation's all-pass judging of a run's saved programs: every test run vs stop at the first timeout",
  usage: ['npm run bench:eval-judging -- RUN_DIR [--candidates 400] [--repeats 3]'],
  positional: 'RUN_DIR: a run directory with rollouts/',
  flags: [
    { name: 'candidates', value: 'N', help: 'saved programs to judge (default 400)' },
    { name: 'repeats', value: 'N', help: 'alternating repeats of both ways (default 3)' },
  ],
  notes: ['Fails when the two ways disagree on any program.'],
  examples: ['npm run bench:eval-judging -- runs/code-a1-s1 --candidates 800 --repeats 2'],
};

export const BENCH_HF_SPEC: CliSpec = {
  command: 'npm run bench:hf',
  summary: "a random-weight model of Qwen2.5-Coder-0.5B's shape: load, memory, forward / decode tok/s, a LoRA update",
  usage: ['npm run bench:hf -- [--layers 2] [--prompt 64] [--new 8] [--tflops 10] [--util 0.3] [--int4-only]'],
  flags: [
    { name: 'layers', value: 'N', help: 'layers kept of the 24 (default 2)' },
    { name: 'prompt', value: 'N', help: 'prompt tokens (default 64)' },
    { name: 'new', value: 'N', help: 'decoded tokens (default 8)' },
    { name: 'tflops', value: 'X', help: 'GPU throughput for the projected times (default 10)' },
    { name: 'util', value: 'X', help: 'utilisation for the projection (default 0.3)' },
    { name: 'int4-only', help: 'only the int4 base' },
  ],
  examples: ['npm run bench:hf -- --layers 1'],
};

export const BENCH_ONNX_SPEC: CliSpec = {
  command: 'npm run bench:onnx',
  summary: "the lab's WebGPU forward against onnxruntime-web's webgpu and wasm EPs, in headless Chromium",
  usage: ['npm run bench:onnx -- [--preset tiny] [--batch 4] [--seq 64] [--decode-batch 1] [--new 24]'],
  flags: [
    { name: 'preset', value: 'micro|tiny|small', help: 'model shape (default tiny)' },
    { name: 'batch', value: 'N', help: 'forward batch' },
    { name: 'seq', value: 'N', help: 'forward sequence length' },
    { name: 'iters', value: 'N', help: 'timed iterations' },
    { name: 'threads', value: 'N', help: 'wasm EP threads' },
    { name: 'probe', value: 'N', help: 'tokens of the agreement probe' },
    { name: 'decode-batch', value: 'N', help: 'decode batch' },
    { name: 'prompt', value: 'N', help: 'decode prompt tokens' },
    { name: 'new', value: 'N', help: 'decoded tokens' },
  ],
  examples: ['npm run bench:onnx -- --preset tiny'],
};

export const BENCH_SANDBOX_HEAP_SPEC: CliSpec = {
  command: 'npm run bench:sandbox-heap',
  summary: 'what a job that grows the wasm heap costs the honest jobs after it on the same worker',
  usage: ['npm run bench:sandbox-heap -- [--jobs 200] [--repeats 3] [--grow-mib 200]'],
  flags: [
    { name: 'jobs', value: 'N', help: 'honest suites before and after the growing job (default 200)' },
    { name: 'repeats', value: 'N', help: 'repeats (default 3)' },
    { name: 'grow-mib', value: 'N', help: 'how much the one hostile job grows memory, MiB (default 200)' },
  ],
  notes: [
    'Prints the ratio of the two medians (ms per suite, wall and CPU) and of the bytes each restore reads, with ' +
      'the pool as configured and, as the same-run baseline, with recycling on growth switched off.',
  ],
  examples: ['npm run bench:sandbox-heap -- --jobs 100 --repeats 2'],
};

export const BENCH_BROWSER_COST_SPEC: CliSpec = {
  command: 'npm run bench:browser-cost',
  summary: 'one config for a few steps in the CLI, Chromium and Firefox: CPU-seconds of each process tree per step',
  usage: [
    'npm run bench:browser-cost -- [--preset micro] [--mode code-a1] [--problems 4] [--steps 4] [--runs 2] [--only cli,firefox]',
  ],
  flags: [
    { name: 'preset', value: 'P', help: 'the preset (default micro)' },
    { name: 'mode', value: 'MODE', help: 'the mode (default code-a1)' },
    { name: 'problems', value: 'N', help: 'problems per step (default 4)' },
    { name: 'seed', value: 'S', help: 'seed (default 1)' },
    { name: 'steps', value: 'N', help: 'steps per run (default 4)' },
    { name: 'runs', value: 'N', help: 'rounds of every variant, interleaved (default 2)' },
    { name: 'dist', value: 'DIR', help: "the build the browsers load (default dist/; e.g. an older revision's)" },
    {
      name: 'only',
      value: 'LIST',
      help: 'variants to run (default all): cli, cli-robust, chromium, chromium-norobust, firefox',
    },
  ],
  notes: [
    'Needs `npm run build` first. CPU-seconds, not wall, are the comparable figure on a shared machine; the tables ' +
      "split each run's CPU by process (GPU process, renderer, main) and by thread. cli-robust is the CLI with Dawn's " +
      'bounds checks on (CODE_A1_ROBUST=1), as a web page has them; chromium-norobust is Chromium with them off ' +
      '(--enable-dawn-features=disable_robustness, a diagnostic no user has): each browser is also compared with the ' +
      'CLI of the same setting. FIREFOX_VK_ICD picks the Vulkan driver under Firefox (default lavapipe).',
  ],
  examples: [
    'npm run bench:browser-cost -- --problems 4 --steps 5',
    'npm run bench:browser-cost -- --only cli,cli-robust --runs 3',
  ],
};
