// The Code-A1 training step (docs/method.md), with the golden and self-play baselines in the same runner.
//
// Every departure from the published implementation is listed in docs/method.md.
import { completeConfig, type TrainConfig } from './config';
import type { Phase, StepOutput } from './records';
import type { Generation, GrpoItem, GrpoSettings, Policy, UpdateStats } from './policy';
import { MistakeBook } from './mistake-book';
import { Rng, deriveSeed } from './rng';
import { RAW_FORMAT } from './prompts-chat';
import { extractAndValidate, mistakeBookInputs, type CountedRollout, type JudgedCandidate } from './judging';
import type { TesterReward } from './rewards';
import { groupAdvantages, mean } from './grpo';
import { buildRolloutRecords } from './trainer-records';
import { stepMetrics } from './trainer-metrics';
import { modeRules } from './modes';
import { chunk, grpoSettingsAt, idleStats, itemsFor, testerItemsFor, updateOrIdle } from './trainer-grpo';
import { extractInputs } from './ace';
import { aceExecuteAll, aceExecutionSummary, aceUpdate } from './trainer-ace';
import { TcsBuffer } from './tcs';
import { tcsJudgeTargets, tcsRewards, tcsTargets } from './trainer-tcs';
import { executeCandidates, testRewards } from './trainer-judge';
import { bookText, validationText } from './vocabulary';
import { countedTotals, judgedText } from './trainer-counts';

import { TrainingHalted, type StepHooks, type StepRun, type TrainerDeps, type TrainerState } from './trainer-types';

export { TrainingHalted, type StepHooks, type TrainerDeps, type TrainerState };

export class Trainer {
  readonly book: MistakeBook;
  readonly tcs: TcsBuffer;
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
    this.tcs = new TcsBuffer(state?.tcsBuffer ?? []);
  }

  state(): TrainerState {
    const tcs = this.tcs.entries.length ? { tcsBuffer: this.tcs.entries } : {};
    return { step: this.step, rngState: this.rng.state, badSteps: this.badSteps, book: this.book.state(), ...tcs };
  }

  /** One full training step. Throws TrainingHalted after `max_bad_steps` consecutive non-finite updates. */
  async runStep(hooks: StepHooks = {}): Promise<StepOutput> {
    const cfg = this.config;
    const rules = modeRules(cfg.mode);
    const coder = this.deps.coder;
    const tester = rules.testerIsCoder ? coder : this.deps.tester;
    const { num_generations: M, tester_generations: N, tests_per_group: K } = cfg.rollout;
    const problems = this.rng
      .sample(this.deps.problems.length, cfg.rollout.problems_per_step)
      .map((i) => this.deps.problems[i]);
    const s: StepRun = {
      cfg,
      rules,
      step: this.step,
      hooks,
      problems,
      coder,
      tester,
      M,
      N,
      K,
      t0: performance.now(),
      tRollout: 0,
      tSandbox: 0,
    };

    const { coderGens, candidates } = await this.rolloutCoder(s);
    const { testerGens, testerTexts } = await this.rolloutTester(s, candidates);
    const validated = await this.validate(s, testerTexts);
    const { replays, judged } = await this.execute(s, candidates, validated);
    const { coderRewards, testerRewards } = await this.reward(s, judged);
    await this.updateBook(s, judged, replays);
    const coderAdv = groupAdvantages(chunk(coderRewards, M), cfg.grpo.scale_rewards);
    const testerGroups = testerRewards.map((g) => g.map((t) => t.reward));
    const testerAdv = groupAdvantages(testerGroups, cfg.grpo.scale_rewards);
    const tUpdate0 = performance.now();
    const { coderStats, testerStats } = await this.update(
      s,
      coderGens,
      testerGens,
      coderAdv.advantages,
      testerAdv.advantages,
      testerGroups,
    );
    const tUpdate = (performance.now() - tUpdate0) / 1000;

    const skipped = coderStats.skipped || testerStats.skipped;
    this.badSteps = skipped ? this.badSteps + 1 : 0;
    this.step++;

    const metrics = stepMetrics({
      step: s.step,
      mode: cfg.mode,
      skipped,
      coderGens,
      testerGens,
      // ACE's counts live on the judged rollouts (an input is well-formed / breaking only after execution).
      validated: s.ace ? judged.flatMap((c) => c.rollouts) : validated,
      judged,
      coderRewards,
      testerRewards,
      coderAdv,
      testerAdv,
      coderStats,
      testerStats,
      bookSize: this.book.size,
      times: { rollout: s.tRollout, sandbox: s.tSandbox, update: tUpdate, step: (performance.now() - s.t0) / 1000 },
    });
    const rollouts = buildRolloutRecords(
      s.step,
      cfg,
      problems,
      judged,
      replays,
      coderRewards,
      coderAdv,
      testerRewards,
      testerAdv,
      s.tcs?.targets,
    );

    if (this.badSteps >= cfg.run.max_bad_steps) {
      throw new TrainingHalted(
        `stopping: ${this.badSteps} consecutive steps had a non-finite loss or gradient (last at step ${s.step}); the last good checkpoint is kept`,
      );
    }
    return { metrics, rollouts };
  }

  /** Runs one phase between the hooks, adding its time to the rollout or sandbox total. */
  private async phase<T>(
    s: StepRun,
    p: Phase,
    kind: 'rollout' | 'sandbox' | 'other',
    fn: () => Promise<T>,
    summary: (r: T) => string,
  ): Promise<T> {
    await s.hooks.beforePhase?.(p);
    const t = performance.now();
    const r = await fn();
    const dt = (performance.now() - t) / 1000;
    if (kind === 'rollout') s.tRollout += dt;
    if (kind === 'sandbox') s.tSandbox += dt;
    s.hooks.onPhase?.({ step: s.step, phase: p, summary: summary(r) });
    return r;
  }

  /** One sampling phase: the step's rollout settings, a per-role seed, progress reported under the phase. */
  private sample(s: StepRun, p: Phase, policy: Policy, prompts: string[], maxNewTokens: number, stop: string[]) {
    const { rollout, seed } = s.cfg;
    const role = p === 'coder-rollout' ? 'coder' : 'tester';
    const opts = {
      maxNewTokens,
      temperature: rollout.temperature,
      topP: rollout.top_p,
      seed: deriveSeed(seed, s.step, role),
      stop,
    };
    const onStream = s.hooks.onStream;
    return policy.generate(prompts, {
      ...opts,
      onProgress: (d, t) => s.hooks.onProgress?.(p, d, t),
      ...(onStream ? { onText: (text: (i: number) => string, n: number) => onStream(p, text, n) } : {}),
    });
  }

  /** 1. Coder rollout: M candidates per problem. */
  private async rolloutCoder(s: StepRun): Promise<{ coderGens: Generation[]; candidates: string[] }> {
    const { problems, M } = s;
    const cf = s.coder.promptFormat ?? RAW_FORMAT;
    const prompts = problems.flatMap((p) => Array<string>(M).fill(cf.coderPrompt(p)));
    const coderGens = await this.phase(
      s,
      'coder-rollout',
      'rollout',
      () => this.sample(s, 'coder-rollout', s.coder, prompts, s.cfg.rollout.max_completion_length, cf.stop),
      (g) => `${g.length} candidates for ${problems.length} problem(s)`,
    );
    return { coderGens, candidates: coderGens.map((g, i) => cf.candidate(problems[Math.floor(i / M)], g.text)) };
  }

  /** 2. White-box tester rollout: N test groups per candidate (none when the mode uses no tester). */
  private async rolloutTester(
    s: StepRun,
    candidates: string[],
  ): Promise<{ testerGens: Generation[]; testerTexts: string[] }> {
    if (!s.rules.usesTester) return { testerGens: [], testerTexts: [] };
    const { problems, M, N, K } = s;
    const tf = s.tester.promptFormat ?? RAW_FORMAT;
    let targets = candidates;
    if (s.rules.testerTargets === 'rolling-buffer') {
      const t0 = performance.now();
      s.tcs = await tcsTargets(this.deps.sandbox, this.tcs, s.cfg, s.step, problems, candidates);
      s.tSandbox += (performance.now() - t0) / 1000;
      targets = s.tcs.targets;
    }
    const prompts = targets.flatMap((c, ci) =>
      Array<string>(N).fill(tf.testerPrompt(problems[Math.floor(ci / M)], c, K)),
    );
    const testerGens = await this.phase(
      s,
      'tester-rollout',
      'rollout',
      () => this.sample(s, 'tester-rollout', s.tester, prompts, s.cfg.rollout.max_test_completion_length, tf.stop),
      (g) => `${g.length} test groups (${N} per candidate)`,
    );
    return { testerGens, testerTexts: testerGens.map((g) => tf.testerText(g.text)) };
  }

  /** 3–4. Extraction and ground-truth validation of every test group. */
  private validate(s: StepRun, testerTexts: string[]): Promise<CountedRollout[]> {
    const { cfg, problems, M, N } = s;
    return this.phase(
      s,
      'validation',
      'sandbox',
      () =>
        Promise.all(
          testerTexts.map((raw, i) => {
            const p = problems[Math.floor(i / (M * N))];
            // ACE has no ground truth: only the calls are extracted (its inputs), judged later by execution alone.
            if (!s.rules.groundTruth) return extractInputs(this.deps.sandbox, p, raw);
            return extractAndValidate(this.deps.sandbox, p, raw, cfg.reward.timeout_ms);
          }),
        ),
      (v) =>
        s.rules.groundTruth
          ? validationText(countedTotals(v))
          : `${v.reduce((a, x) => a + x.tests.length, 0)} distinct inputs extracted (no ground truth is consulted)`,
    );
  }

  /** 5. Execution: each candidate against its attacks + Mistake Book replays (+ hidden tests, for the record only). */
  private async execute(
    s: StepRun,
    candidates: string[],
    validated: CountedRollout[],
  ): Promise<{ replays: string[][]; judged: JudgedCandidate[] }> {
    const { cfg, rules, problems } = s;
    const sandbox = this.deps.sandbox;
    const replays = problems.map((p) =>
      cfg.mistake_book.enabled && rules.usesTester && rules.mistakeBook
        ? this.book.replay(p.id, cfg.mistake_book.replay_top_k, s.step)
        : [],
    );
    if (rules.testerReward === 'ace-breaks') {
      const per = await this.phase(
        s,
        'execution',
        'sandbox',
        () => aceExecuteAll(sandbox, cfg, problems, candidates, validated),
        (r) => aceExecutionSummary(r, candidates.length),
      );
      s.ace = per;
      return { replays, judged: per.flatMap((x) => x.judged) };
    }
    const judged = await this.phase(
      s,
      'execution',
      'sandbox',
      () => executeCandidates(sandbox, s, candidates, validated, replays),
      (j) =>
        `${judgedText(j, replays, !rules.usesTester)} · mean hidden pass ${mean(j.map((c) => c.hiddenPassRate)).toFixed(2)}`,
    );
    if (s.tcs) {
      const t0 = performance.now();
      await tcsJudgeTargets(sandbox, cfg, problems, s.tcs, judged, validated);
      s.tSandbox += (performance.now() - t0) / 1000;
    }
    return { replays, judged };
  }

  /** 6. Rewards. */
  private reward(
    s: StepRun,
    judged: JudgedCandidate[],
  ): Promise<{ coderRewards: number[]; testerRewards: TesterReward[][] }> {
    return this.phase(
      s,
      'rewards',
      'other',
      async () => {
        if (s.ace) {
          return { coderRewards: s.ace.flatMap((x) => x.coder), testerRewards: s.ace.flatMap((x) => x.tester) };
        }
        if (s.tcs) return tcsRewards(s.cfg, s.tcs, judged);
        return testRewards(s, judged);
      },
      (r) =>
        `coder reward ${mean(r.coderRewards).toFixed(3)}; tester reward ${mean(r.testerRewards.flat().map((t) => t.reward)).toFixed(3)}`,
    );
  }

  /** 7. Mistake Book update. */
  private async updateBook(s: StepRun, judged: JudgedCandidate[], replays: string[][]): Promise<void> {
    const { cfg, problems, M, step } = s;
    await this.phase(
      s,
      'mistake-book',
      'other',
      async () => {
        if (!s.rules.usesTester || !s.rules.mistakeBook || !cfg.mistake_book.enabled) return;
        problems.forEach((p, pi) => {
          const { newFailing, oldPassed, detail } = mistakeBookInputs(judged.slice(pi * M, (pi + 1) * M), replays[pi]);
          this.book.update(p.id, step, newFailing, oldPassed, detail);
        });
        this.book.endStep(step);
      },
      () => {
        const h = this.book.state().history.at(-1);
        return bookText(h && h.step === step ? h : { added: 0, removed: 0, size: this.book.size });
      },
    );
  }

  /**
   * The update's progress for the page: micro-batches done, the coder's update the first `1/parts` of the phase and
   * the tester's the rest, so the bar only moves forward; the pause boundary before each micro-batch.
   */
  private updateProgress(s: StepRun, part: number, parts: number): Pick<GrpoSettings, 'progress'> {
    const { onProgress, atBoundary } = s.hooks;
    if (!onProgress && !atBoundary) return {};
    return {
      progress: {
        onMicro: (d, t) => onProgress?.('update', Math.round((1000 * (part + d / t)) / parts), 1000),
        ...(atBoundary ? { beforeMicro: atBoundary } : {}),
      },
    };
  }

  /** 8. GRPO update of both models (one joint update when the coder writes the tests). */
  private update(
    s: StepRun,
    coderGens: Generation[],
    testerGens: Generation[],
    coderAdv: number[][],
    testerAdv: number[][],
    testerGroups: number[][],
  ): Promise<{ coderStats: UpdateStats; testerStats: UpdateStats }> {
    const { cfg, rules, problems, M, N } = s;
    return this.phase(
      s,
      'update',
      'other',
      async () => {
        if (rules.coderUpdate === 'sft-robust' && s.ace) {
          const robust = s.ace.flatMap((x) => x.coder);
          return aceUpdate(
            cfg,
            s.step,
            s.coder,
            coderGens,
            robust,
            testerGens,
            s.ace.flatMap((x) => x.labels),
          );
        }
        const drop = cfg.grpo.drop_zero_std_groups;
        const parts = rules.trainsTester && !rules.testerIsCoder ? 2 : 1;
        const at = (part: number, lr: number) => ({
          ...grpoSettingsAt(cfg, s.step, lr),
          ...this.updateProgress(s, part, parts),
        });
        const coderItems = itemsFor(coderGens, coderAdv, M, drop);
        const testerItems: GrpoItem[] = rules.trainsTester
          ? testerItemsFor(cfg, problems.length, M, N, testerGens, testerAdv, testerGroups)
          : [];
        if (rules.testerIsCoder) {
          const st = await updateOrIdle(s.coder, [...coderItems, ...testerItems], at(0, cfg.optim.lr));
          return { coderStats: st, testerStats: st };
        }
        const coderStats = await updateOrIdle(s.coder, coderItems, at(0, cfg.optim.lr));
        const testerStats = rules.trainsTester
          ? await updateOrIdle(s.tester, testerItems, at(1, cfg.optim.tester_lr))
          : idleStats();
        return { coderStats, testerStats };
      },
      (r) =>
        `coder loss ${r.coderStats.loss.toFixed(4)} (${r.coderStats.tokens} tokens); tester loss ${r.testerStats.loss.toFixed(4)}`,
    );
  }
}
