// The Code-A1 training step (docs/method.md), with the golden and self-play baselines in the same runner.
//
// Every departure from the published implementation is listed in docs/method.md.
import type { Problem } from '../tasks/types';
import type { Sandbox } from '../sandbox/types';
import { completeConfig, lrAt, type TrainConfig } from './config';
import type { StepMetrics } from './metrics';
import type { Phase, PhaseEvent, StepOutput } from './records';
import type { Generation, GrpoItem, GrpoSettings, Policy, UpdateStats } from './policy';
import { MistakeBook, type MistakeBookState } from './mistake-book';
import { Rng, deriveSeed } from './rng';
import { RAW_FORMAT } from './prompts-chat';
import { executeCandidate, extractAndValidate, goldenRollout, mistakeBookInputs, scoreCandidate, type JudgedCandidate } from './judging';
import { goldenReward, type TesterReward } from './rewards';
import { groupAdvantages, maxVarianceGroup, mean, meanStd } from './grpo';
import { buildRolloutRecords } from './trainer-records';

export interface TrainerDeps {
  sandbox: Sandbox;
  coder: Policy;
  /** The Tester; in self-play mode pass the coder itself (one model writes code and tests). */
  tester: Policy;
  /** Training problems to draw from. */
  problems: Problem[];
}

export interface TrainerState {
  step: number;
  rngState: number;
  badSteps: number;
  book: MistakeBookState;
}

export interface StepHooks {
  /** Awaited before each phase starts (step-through mode pauses here). */
  beforePhase?: (phase: Phase) => Promise<void>;
  onPhase?: (e: PhaseEvent) => void;
  onProgress?: (phase: Phase, done: number, total: number) => void;
}

export class TrainingHalted extends Error {
  constructor(msg: string) {
    super(msg);
    this.name = 'TrainingHalted';
  }
}

export class Trainer {
  readonly book: MistakeBook;
  private rng: Rng;
  step: number;
  badSteps: number;

  readonly config: TrainConfig;

  constructor(
    config: TrainConfig,
    readonly deps: TrainerDeps,
    state?: TrainerState,
  ) {
    this.config = completeConfig(config);
    if (!deps.problems.length) throw new Error('Trainer: no training problems');
    this.step = state?.step ?? 0;
    this.badSteps = state?.badSteps ?? 0;
    this.rng = new Rng(state?.rngState ?? deriveSeed(config.seed, 'problems'));
    this.book = state ? MistakeBook.fromState(state.book) : new MistakeBook();
  }

  state(): TrainerState {
    return { step: this.step, rngState: this.rng.state, badSteps: this.badSteps, book: this.book.state() };
  }

  /** The GRPO settings at this step, with the lr from the schedule. */
  private grpoSettings(baseLr: number): GrpoSettings {
    const { grpo, optim, rollout } = this.config;
    return {
      lr: lrAt(baseLr, this.step, optim),
      epsilon_low: grpo.epsilon_low,
      epsilon_high: grpo.epsilon_high,
      dual_clip_c: grpo.dual_clip_c,
      beta: grpo.beta,
      loss_type: grpo.loss_type,
      max_completion_length: rollout.max_completion_length,
      is_cap: grpo.is_cap,
      max_grad_norm: optim.max_grad_norm,
      weight_decay: optim.weight_decay,
      weight_decay_params: optim.weight_decay_params,
      mini_batches: optim.mini_batches,
      num_iterations: grpo.num_iterations,
      beta1: optim.beta1,
      beta2: optim.beta2,
      eps: optim.eps,
      temperature: rollout.temperature > 0 ? rollout.temperature : 1,
    };
  }

  /** One full training step. Throws TrainingHalted after `max_bad_steps` consecutive non-finite updates. */
  async runStep(hooks: StepHooks = {}): Promise<StepOutput> {
    const cfg = this.config;
    const { sandbox, coder } = this.deps;
    const tester = cfg.mode === 'self-play' ? coder : this.deps.tester;
    const step = this.step;
    const { num_generations: M, tester_generations: N, tests_per_group: K } = cfg.rollout;
    const t0 = performance.now();
    let tRollout = 0;
    let tSandbox = 0;
    const phase = async <T>(p: Phase, kind: 'rollout' | 'sandbox' | 'other', fn: () => Promise<T>, summary: (r: T) => string) => {
      await hooks.beforePhase?.(p);
      const s = performance.now();
      const r = await fn();
      const dt = (performance.now() - s) / 1000;
      if (kind === 'rollout') tRollout += dt;
      if (kind === 'sandbox') tSandbox += dt;
      hooks.onPhase?.({ step, phase: p, summary: summary(r) });
      return r;
    };

    const problems = this.rng.sample(this.deps.problems.length, cfg.rollout.problems_per_step).map((i) => this.deps.problems[i]);
    const cf = coder.promptFormat ?? RAW_FORMAT;
    const tf = tester.promptFormat ?? RAW_FORMAT;

    // 1. Coder rollout: M candidates per problem.
    const coderGens = await phase(
      'coder-rollout',
      'rollout',
      () =>
        coder.generate(
          problems.flatMap((p) => Array<string>(M).fill(cf.coderPrompt(p))),
          {
            maxNewTokens: cfg.rollout.max_completion_length,
            temperature: cfg.rollout.temperature,
            topP: cfg.rollout.top_p,
            seed: deriveSeed(cfg.seed, step, 'coder'),
            stop: cf.stop,
            onProgress: (d, t) => hooks.onProgress?.('coder-rollout', d, t),
          },
        ),
      (g) => `${g.length} candidates for ${problems.length} problem(s)`,
    );
    const candidates = coderGens.map((g, i) => cf.candidate(problems[Math.floor(i / M)], g.text));

    // 2. White-box tester rollout: N test groups per candidate (none in golden mode).
    const testerGens: Generation[] =
      cfg.mode === 'golden'
        ? []
        : await phase(
            'tester-rollout',
            'rollout',
            () =>
              tester.generate(
                candidates.flatMap((c, ci) => Array<string>(N).fill(tf.testerPrompt(problems[Math.floor(ci / M)], c, K))),
                {
                  maxNewTokens: cfg.rollout.max_test_completion_length,
                  temperature: cfg.rollout.temperature,
                  topP: cfg.rollout.top_p,
                  seed: deriveSeed(cfg.seed, step, 'tester'),
                  stop: tf.stop,
                  onProgress: (d, t) => hooks.onProgress?.('tester-rollout', d, t),
                },
              ),
            (g) => `${g.length} test groups (${N} per candidate)`,
          );
    const testerTexts = testerGens.map((g) => tf.testerText(g.text));

    // 3–4. Extraction and ground-truth validation of every test group.
    const validated = await phase(
      'validation',
      'sandbox',
      () =>
        Promise.all(
          testerTexts.map((raw, i) =>
            extractAndValidate(sandbox, problems[Math.floor(i / (M * N))], raw, cfg.reward.timeout_ms),
          ),
        ),
      (v) => `${v.reduce((a, x) => a + x.tests.length + x.malformed, 0)} assert lines, ${v.reduce((a, x) => a + x.valid.length, 0)} valid (distinct, call ran on the ground truth)`,
    );

    // 5. Execution: each candidate against its attacks + Mistake Book replays (+ hidden tests, for the record only).
    const replays = problems.map((p) => (cfg.mistake_book.enabled && cfg.mode !== 'golden' ? this.book.replay(p.id, cfg.mistake_book.replay_top_k) : []));
    const judged: JudgedCandidate[] = await phase(
      'execution',
      'sandbox',
      () =>
        Promise.all(
          candidates.map((code, ci) => {
            const pi = Math.floor(ci / M);
            const p = problems[pi];
            if (cfg.mode === 'golden') {
              const golden = cfg.reward.golden_tests === 'public' ? p.publicTests : p.hiddenTests;
              return executeCandidate(sandbox, p, code, [goldenRollout(golden)], [], K, cfg.reward.timeout_ms);
            }
            return executeCandidate(sandbox, p, code, validated.slice(ci * N, (ci + 1) * N), replays[pi], K, cfg.reward.timeout_ms);
          }),
        ),
      (j) => `${j.filter((c) => c.compiles).length}/${j.length} candidates compile; mean hidden pass ${mean(j.map((c) => c.hiddenPassRate)).toFixed(2)}`,
    );

    // 6. Rewards.
    const { coderRewards, testerRewards } = await phase(
      'rewards',
      'other',
      async () => {
        if (cfg.mode === 'golden') {
          const coderRewards = judged.map((c) => goldenReward(c.compiles, c.rollouts[0].outcome.numPassed, c.rollouts[0].outcome.numValid));
          return { coderRewards, testerRewards: [] as TesterReward[][] };
        }
        const scored = judged.map((c) => scoreCandidate(c, K, cfg.reward.alpha));
        const coderRewards = scored.map((x) => x.coder);
        const testerRewards = scored.map((x) => x.tester);
        return { coderRewards, testerRewards };
      },
      (r) => `coder reward ${mean(r.coderRewards).toFixed(3)}; tester reward ${mean(r.testerRewards.flat().map((t) => t.reward)).toFixed(3)}`,
    );

    // 7. Mistake Book update.
    await phase(
      'mistake-book',
      'other',
      async () => {
        if (cfg.mode === 'golden' || !cfg.mistake_book.enabled) return;
        problems.forEach((p, pi) => {
          const { newFailing, oldPassed } = mistakeBookInputs(judged.slice(pi * M, (pi + 1) * M), replays[pi]);
          this.book.update(p.id, step, newFailing, oldPassed);
        });
        this.book.endStep(step);
      },
      () => `Mistake Book holds ${this.book.size} tests`,
    );

    // 8. GRPO update of both models.
    const coderAdv = groupAdvantages(chunk(coderRewards, M), cfg.grpo.scale_rewards);
    const testerGroups = testerRewards.map((g) => g.map((t) => t.reward));
    const testerAdv = groupAdvantages(testerGroups, cfg.grpo.scale_rewards);
    const tUpdate0 = performance.now();
    const { coderStats, testerStats } = await phase(
      'update',
      'other',
      async () => {
        const drop = cfg.grpo.drop_zero_std_groups;
        const coderItems = itemsFor(coderGens, coderAdv.advantages, M, drop);
        let testerItems: GrpoItem[] = [];
        if (cfg.mode !== 'golden') {
          const chosen = new Set<number>();
          problems.forEach((_, pi) => {
            const idx = Array.from({ length: M }, (_, j) => pi * M + j);
            if (cfg.grpo.tester_candidates === 'all') idx.forEach((i) => chosen.add(i));
            else chosen.add(idx[maxVarianceGroup(idx.map((i) => testerGroups[i]))]);
          });
          testerItems = itemsFor(testerGens, testerAdv.advantages, N, drop, (g) => chosen.has(g));
        }
        if (cfg.mode === 'self-play') {
          const s = await updateOrIdle(coder, [...coderItems, ...testerItems], this.grpoSettings(cfg.optim.lr));
          return { coderStats: s, testerStats: s };
        }
        const coderStats = await updateOrIdle(coder, coderItems, this.grpoSettings(cfg.optim.lr));
        const testerStats = cfg.mode === 'golden' ? idleStats() : await updateOrIdle(tester, testerItems, this.grpoSettings(cfg.optim.tester_lr));
        return { coderStats, testerStats };
      },
      (s) => `coder loss ${s.coderStats.loss.toFixed(4)} (${s.coderStats.tokens} tokens); tester loss ${s.testerStats.loss.toFixed(4)}`,
    );
    const tUpdate = (performance.now() - tUpdate0) / 1000;

    const skipped = coderStats.skipped || testerStats.skipped;
    this.badSteps = skipped ? this.badSteps + 1 : 0;
    this.step++;

    const genTokens = [...coderGens, ...testerGens].reduce((a, g) => a + g.completionTokens.length, 0);
    const allTester = testerRewards.flat();
    const lines = validated.reduce((a, v) => a + v.tests.length + v.malformed, 0);
    const rightTests = validated.reduce((a, v) => a + v.tests.filter((t) => t.valid && !t.repeat).length, 0);
    const replayRuns = judged.filter((c) => c.compiles).flatMap((c) => c.replayPassed);
    const cr = meanStd(coderRewards);
    const tr = meanStd(allTester.map((t) => t.reward));
    const metrics: StepMetrics = {
      step,
      mode: cfg.mode,
      time: Date.now(),
      ...(skipped ? { skipped: true } : {}),
      'coder/reward_mean': cr.mean,
      'coder/reward_std': cr.std,
      'coder/pass_rate': mean(judged.flatMap((c) => c.rollouts.flatMap((r) => r.passed.map(Number)))),
      'tester/reward_mean': tr.mean,
      'tester/reward_std': tr.std,
      'tester/validity_mean': mean(allTester.map((t) => t.validity)),
      'tester/adversarial_mean': mean(allTester.map((t) => t.adversarial)),
      'tester/valid_test_rate': lines ? rightTests / lines : 0,
      'mistake_book/size': this.book.size,
      'mistake_book/replay_pass_rate': replayRuns.length ? replayRuns.filter(Boolean).length / replayRuns.length : 0,
      'coder/loss': coderStats.loss,
      'coder/kl': coderStats.kl,
      'coder/entropy': coderStats.entropy,
      'coder/clip_ratio/low_mean': coderStats.clipLow,
      'coder/clip_ratio/high_mean': coderStats.clipHigh,
      'coder/frac_reward_zero_std': coderAdv.fracZeroStd,
      'coder/grad_norm': coderStats.gradNorm,
      'tester/loss': testerStats.loss,
      'tester/kl': testerStats.kl,
      'tester/entropy': testerStats.entropy,
      'tester/clip_ratio/low_mean': testerStats.clipLow,
      'tester/clip_ratio/high_mean': testerStats.clipHigh,
      'tester/frac_reward_zero_std': testerAdv.fracZeroStd,
      'tester/grad_norm': testerStats.gradNorm,
      'completions/coder_mean_length': mean(coderGens.map((g) => g.completionTokens.length)),
      'completions/tester_mean_length': mean(testerGens.map((g) => g.completionTokens.length)),
      'rollout/mismatch_kl': mean([coderStats, testerStats].filter((s) => s.tokens > 0).map((s) => s.mismatchKl)),
      'perf/tokens_per_s': tRollout > 0 ? genTokens / tRollout : 0,
      'time/rollout_s': tRollout,
      'time/sandbox_s': tSandbox,
      'time/update_s': tUpdate,
      'time/step_s': (performance.now() - t0) / 1000,
    };

    const rollouts = buildRolloutRecords(step, cfg, problems, judged, replays, coderRewards, coderAdv, testerRewards, testerAdv);

    if (this.badSteps >= cfg.run.max_bad_steps) {
      throw new TrainingHalted(
        `stopping: ${this.badSteps} consecutive steps had a non-finite loss or gradient (last at step ${step}); the last good checkpoint is kept`,
      );
    }
    return { metrics, rollouts };
  }
}

function itemsFor(gens: Generation[], adv: number[][], groupSize: number, dropTied: boolean, keepGroup: (g: number) => boolean = () => true): GrpoItem[] {
  const items: GrpoItem[] = [];
  adv.forEach((group, gi) => {
    if (!keepGroup(gi) || (dropTied && group.every((a) => a === 0))) return;
    group.forEach((a, j) => {
      const g = gens[gi * groupSize + j];
      items.push({ promptTokens: g.promptTokens, completionTokens: g.completionTokens, rolloutLogprobs: g.rolloutLogprobs, advantage: a });
    });
  });
  return items;
}

async function updateOrIdle(policy: Policy, items: GrpoItem[], s: GrpoSettings): Promise<UpdateStats> {
  return items.length ? policy.grpoUpdate(items, s) : idleStats();
}

function idleStats(): UpdateStats {
  return { loss: 0, kl: 0, entropy: 0, clipLow: 0, clipHigh: 0, gradNorm: 0, mismatchKl: 0, skipped: false, tokens: 0 };
}

function chunk<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}
