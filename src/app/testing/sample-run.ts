// Random, structurally valid run records (metrics, rollouts, Mistake Book) for unit tests and UI-only e2e specs.
// They exercise the UI's views; they are not trainer output and say nothing about training.
import { mulberry32 } from '../../testing/random';
import type { Mode, StepMetrics } from '../../rl/metrics';
import type { CandidateRecord, MistakeEntry, RolloutRecord, TestRecord } from '../../rl/records';

const METRIC_KEYS = [
  'coder/reward_mean',
  'coder/reward_std',
  'coder/pass_rate',
  'tester/reward_mean',
  'tester/reward_std',
  'tester/validity_mean',
  'tester/adversarial_mean',
  'tester/valid_test_rate',
  'mistake_book/size',
  'mistake_book/replay_pass_rate',
  'coder/loss',
  'coder/kl',
  'coder/entropy',
  'coder/clip_ratio/low_mean',
  'coder/clip_ratio/high_mean',
  'coder/frac_reward_zero_std',
  'coder/grad_norm',
  'tester/loss',
  'tester/kl',
  'tester/entropy',
  'tester/clip_ratio/low_mean',
  'tester/clip_ratio/high_mean',
  'tester/frac_reward_zero_std',
  'tester/grad_norm',
  'completions/coder_mean_length',
  'completions/tester_mean_length',
  'rollout/mismatch_kl',
  'perf/tokens_per_s',
  'time/rollout_s',
  'time/sandbox_s',
  'time/update_s',
  'time/step_s',
] as const;

export function sampleMetrics(seed: number, steps: number, mode: Mode = 'code-a1'): StepMetrics[] {
  const rng = mulberry32(seed);
  const out: StepMetrics[] = [];
  for (let step = 0; step < steps; step++) {
    const m: Record<string, number | string> = { step, mode, time: 1_700_000_000_000 + step * 1000 };
    for (const k of METRIC_KEYS)
      m[k] = k === 'mistake_book/size' ? Math.floor(rng() * 20) : rng() * (k.startsWith('perf') ? 500 : 1);
    out.push(m as unknown as StepMetrics);
  }
  return out;
}

export function sampleRollout(
  seed: number,
  step: number,
  opts: { candidates?: number; testers?: number; k?: number } = {},
): RolloutRecord {
  const rng = mulberry32(seed);
  const M = opts.candidates ?? 3;
  const N = opts.testers ?? 2;
  const K = opts.k ?? 3;
  const candidates: CandidateRecord[] = [];
  // Validity is decided by the ground truth, so one test text is valid everywhere in a rollout or nowhere.
  const validOf = new Map<string, boolean>();
  for (let c = 0; c < M; c++) {
    const testerRollouts = [];
    for (let n = 0; n < N; n++) {
      const tests: TestRecord[] = [];
      const passed: boolean[] = [];
      for (let k = 0; k < K; k++) {
        let text: string;
        // One tester output never repeats a statement here (a repeat would be counted invalid after fill-in).
        do text = `assert add(${Math.floor(rng() * 9)}, ${Math.floor(rng() * 9)}) == ${Math.floor(rng() * 18)}`;
        while (tests.some((t) => t.text === text));
        const valid = validOf.get(text) ?? rng() < 0.6;
        validOf.set(text, valid);
        tests.push({ text, valid, callOk: valid || rng() < 0.5 });
        passed.push(rng() < 0.5);
      }
      testerRollouts.push({
        raw: tests.map((t) => t.text).join('\n'),
        tests,
        passed,
        validity: rng(),
        adversarial: rng(),
        reward: rng(),
        advantage: rng() * 2 - 1,
      });
    }
    candidates.push({
      code: `def add(a, b):\n    return a ${rng() < 0.5 ? '+' : '-'} b\n`,
      compiles: rng() < 0.9,
      reward: rng(),
      advantage: rng() * 2 - 1,
      testerRollouts,
      hiddenPassRate: Math.round(rng() * 4) / 4,
    });
  }
  return {
    step,
    mode: 'code-a1',
    problemId: `p${seed % 7}`,
    prompt: 'def add(a, b):\n    """Return a + b."""\n',
    entryPoint: 'add',
    candidates,
    replays: [],
  };
}

export function sampleMistakes(seed: number, n: number): MistakeEntry[] {
  const rng = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => ({
    problemId: `p${Math.floor(rng() * 4)}`,
    test: `assert add(${i}, ${Math.floor(rng() * 9)}) == ${Math.floor(rng() * 18)}`,
    frequency: 1 + Math.floor(rng() * 5),
    stepBorn: 1 + Math.floor(rng() * 5),
    candidatesBroken: 1 + Math.floor(rng() * 8),
    timesReplayed: Math.floor(rng() * 4),
    lastPassedStep: rng() < 0.5 ? null : 1 + Math.floor(rng() * 5),
    // Every other entry as a run before issue 49 saved it: without the teaching fields.
    ...(i % 2 === 0
      ? {
          brokeCandidate: `def add(a, b):\n    return a - b\n`,
          got: `got ${i - 1}, expected ${i + 1}`,
          replayedAt: [2, 3],
        }
      : {}),
  }));
}
