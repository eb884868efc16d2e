// The Pyodide worker pool behind the Sandbox contract: requests become jobs for the scheduler (scheduler.ts), raw
// worker output becomes verdicts, extractions and validated tests.
import type { JudgeJob, RawExtract, RawJudge, RawProbe } from './protocol';
import { WorkerScheduler } from './scheduler';
import type { ExecResult, Extraction, ExtractedTest, JudgeRequest, JudgeResult, Sandbox, ValidatedTest } from './types';
import { toExecuted, toJudgeResult, toValidated } from './verdicts';
import { capCompletion, rejectAll } from './caps';

export type { PoolOptions, PoolStats, WorkerHandle, WorkerSpawner } from './pool-types';

export class SandboxPool extends WorkerScheduler implements Sandbox {
  private judgeJob(req: JudgeRequest, wantRepr = false): JudgeJob {
    return {
      kind: 'judge',
      code: req.code,
      entryPoint: req.entryPoint,
      tests: req.tests,
      timeoutMs: req.timeoutMs ?? this.opts.defaultTimeoutMs,
      setupCode: req.setupCode,
      wantRepr,
      stopAtTimeout: req.stopAtTimeout,
      trustedTests: req.trustedTests,
    };
  }

  async judge(req: JudgeRequest): Promise<JudgeResult> {
    const { job, raw } = await this.submit(this.judgeJob(req));
    return toJudgeResult(job, raw as RawJudge);
  }

  /** Never rejects for what the text holds: a failed or timed-out extraction rejects every line with the reason. */
  async extract(raw: string, entryPoint: string, k: number): Promise<Extraction> {
    const { text, rejected } = capCompletion(raw);
    const r = (await this.submit({ kind: 'extract' as const, raw: text, entryPoint, k })).raw as RawExtract;
    if (r.json === undefined)
      return {
        tests: [],
        rejected: [...rejectAll(text, r.failed ?? 'extraction failed'), ...rejected],
        failed: r.failed,
      };
    const ex = JSON.parse(r.json) as Extraction;
    return { tests: ex.tests, rejected: [...ex.rejected, ...rejected] };
  }

  async validate(
    groundTruth: string,
    entryPoint: string,
    tests: ExtractedTest[],
    timeoutMs?: number,
    setupCode?: string,
  ): Promise<ValidatedTest[]> {
    const req = {
      code: groundTruth,
      entryPoint,
      tests: tests.map((t) => `assert ${t.call} == ${t.expected}`),
      timeoutMs,
      setupCode,
    };
    const { job, raw } = await this.submit(this.judgeJob(req, true));
    return toValidated(job, raw as RawJudge, tests);
  }

  async execute(code: string, entryPoint: string, calls: string[], timeoutMs?: number): Promise<ExecResult> {
    const req = { code, entryPoint, tests: calls.map((c) => `assert ${c} == None`), timeoutMs };
    const { job, raw } = await this.submit(this.judgeJob(req, true));
    return toExecuted(job, raw as RawJudge);
  }

  /** Test hook: what JS could still do inside a locked-down worker (every entry should be false). */
  async probeRealm(): Promise<Record<string, boolean>> {
    const r = await this.submit({ kind: 'probe' as const });
    return (r.raw as RawProbe).report;
  }
}
