// The Mistake Book: per problem, the tests that broke a candidate, with a frequency and lineage; replays top-k.
//
// Frequency as in the published MistakeBook: −1 each time a valid candidate passes a replayed test (removed at 0),
// then +1 each time a generated test breaks a valid candidate in a tester rollout; a replayed test that fails again
// gains nothing unless a rollout regenerates it. Replay draws the top-k by frequency (ties: older first).
import type { MistakeEntry } from './records';
import { checkSteps } from './metrics';

/** What a new entry remembers about the break that made it (see MistakeEntry). */
export interface BreakDetail {
  candidate: string;
  got?: string;
}

/** Bounds on the teaching fields, so a long run's book stays small in storage. */
const CANDIDATE_CHARS = 2000;
const GOT_CHARS = 300;
const REPLAYS_KEPT = 10;

export interface BookHistoryPoint {
  step: number;
  size: number;
  added: number;
  removed: number;
}

export interface MistakeBookState {
  entries: MistakeEntry[];
  history: BookHistoryPoint[];
}

export class MistakeBook {
  private byProblem = new Map<string, Map<string, MistakeEntry>>();
  private history: BookHistoryPoint[] = [];
  private added = 0;
  private removed = 0;

  /** A saved book; its history (one point per step the book was updated) must have no step twice or missing. */
  static fromState(s: MistakeBookState, where = 'Mistake Book'): MistakeBook {
    checkSteps(
      s.history.map((h) => h.step),
      (i) => `${where} history[${i}]`,
      true,
    );
    const book = new MistakeBook();
    for (const e of s.entries)
      book.problem(e.problemId).set(e.test, { ...e, ...(e.replayedAt ? { replayedAt: [...e.replayedAt] } : {}) });
    book.history = s.history.map((h) => ({ ...h }));
    return book;
  }

  private problem(id: string): Map<string, MistakeEntry> {
    let m = this.byProblem.get(id);
    if (!m) this.byProblem.set(id, (m = new Map()));
    return m;
  }

  /** The tests to replay for a problem: top-k by frequency. Counts a replay for each (at `step`, when given). */
  replay(problemId: string, k: number, step?: number): string[] {
    const m = this.byProblem.get(problemId);
    if (!m || k <= 0) return [];
    const top = [...m.values()].sort((a, b) => b.frequency - a.frequency || a.stepBorn - b.stepBorn).slice(0, k);
    for (const e of top) {
      e.timesReplayed++;
      if (step !== undefined) e.replayedAt = [...(e.replayedAt ?? []), step].slice(-REPLAYS_KEPT);
    }
    return top.map((e) => e.test);
  }

  /**
   * The release's update for one problem after a step, in its order: first −1 for each replayed test a valid
   * candidate passed (removed at 0), then +1 for each valid test that broke a valid candidate in one tester rollout
   * (a test is distinct within a rollout after the fill-in, so it counts once per rollout it breaks the candidate in;
   * a removed test that breaks again comes back as new). Both lists keep their repeats.
   */
  update(
    problemId: string,
    step: number,
    newFailing: readonly string[],
    oldPassed: readonly string[],
    /** Per newFailing entry, the candidate it broke and what that candidate did (teaching only: no effect on counts). */
    detail?: readonly (BreakDetail | undefined)[],
  ): void {
    const m = this.problem(problemId);
    for (const test of oldPassed) {
      const e = m.get(test);
      if (!e) continue;
      e.frequency -= 1;
      e.lastPassedStep = step;
      if (e.frequency <= 0) {
        m.delete(test);
        this.removed++;
      }
    }
    newFailing.forEach((test, i) => {
      const e = m.get(test);
      const d = detail?.[i];
      if (e) {
        e.frequency += 1;
        e.candidatesBroken += 1;
      } else {
        m.set(test, {
          problemId,
          test,
          frequency: 1,
          stepBorn: step,
          candidatesBroken: 1,
          timesReplayed: 0,
          lastPassedStep: null,
          ...(d ? { brokeCandidate: d.candidate.slice(0, CANDIDATE_CHARS) } : {}),
          ...(d?.got ? { got: d.got.slice(0, GOT_CHARS) } : {}),
        });
        this.added++;
      }
    });
    if (m.size === 0) this.byProblem.delete(problemId);
  }

  /** Close a step: append a history point (size, added, removed since the last point). */
  endStep(step: number): void {
    this.history.push({ step, size: this.size, added: this.added, removed: this.removed });
    this.added = 0;
    this.removed = 0;
  }

  get size(): number {
    let n = 0;
    for (const m of this.byProblem.values()) n += m.size;
    return n;
  }

  entries(): MistakeEntry[] {
    const out: MistakeEntry[] = [];
    for (const m of this.byProblem.values())
      for (const e of m.values()) out.push({ ...e, ...(e.replayedAt ? { replayedAt: [...e.replayedAt] } : {}) });
    return out.sort((a, b) => a.problemId.localeCompare(b.problemId) || b.frequency - a.frequency);
  }

  state(): MistakeBookState {
    return { entries: this.entries(), history: this.history.map((h) => ({ ...h })) };
  }
}
