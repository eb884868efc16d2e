// The Mistake Book: per problem, the tests that broke a candidate, with a frequency and lineage; replays top-k.
//
// Frequency: +1 each time the test breaks a candidate (fresh or replayed), −1 each time a replayed test is passed;
// an entry is removed when its frequency reaches 0. Replay draws the top-k by frequency (ties: older first).
import type { MistakeEntry } from './records';

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

  static fromState(s: MistakeBookState): MistakeBook {
    const book = new MistakeBook();
    for (const e of s.entries) book.problem(e.problemId).set(e.test, { ...e });
    book.history = s.history.map((h) => ({ ...h }));
    return book;
  }

  private problem(id: string): Map<string, MistakeEntry> {
    let m = this.byProblem.get(id);
    if (!m) this.byProblem.set(id, (m = new Map()));
    return m;
  }

  /** The tests to replay for a problem: top-k by frequency. Counts a replay for each. */
  replay(problemId: string, k: number): string[] {
    const m = this.byProblem.get(problemId);
    if (!m || k <= 0) return [];
    const top = [...m.values()].sort((a, b) => b.frequency - a.frequency || a.stepBorn - b.stepBorn).slice(0, k);
    for (const e of top) e.timesReplayed++;
    return top.map((e) => e.test);
  }

  /** A fresh generated test broke `broken` candidates (≥ 1) at `step`. */
  recordBreak(problemId: string, test: string, step: number, broken = 1): void {
    if (broken <= 0) return;
    const m = this.problem(problemId);
    const e = m.get(test);
    if (e) {
      e.frequency += broken;
      e.candidatesBroken += broken;
    } else {
      m.set(test, {
        problemId,
        test,
        frequency: broken,
        stepBorn: step,
        candidatesBroken: broken,
        timesReplayed: 0,
        lastPassedStep: null,
      });
      this.added++;
    }
  }

  /** A replayed test was run on candidates: +1 per candidate it broke, −1 per candidate that passed it. */
  recordReplay(problemId: string, test: string, step: number, passedCount: number, failedCount: number): void {
    const m = this.byProblem.get(problemId);
    const e = m?.get(test);
    if (!m || !e) return;
    e.frequency += failedCount - passedCount;
    e.candidatesBroken += failedCount;
    if (passedCount > 0) e.lastPassedStep = step;
    if (e.frequency <= 0) {
      m.delete(test);
      this.removed++;
      if (m.size === 0) this.byProblem.delete(problemId);
    }
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
    for (const m of this.byProblem.values()) for (const e of m.values()) out.push({ ...e });
    return out.sort((a, b) => a.problemId.localeCompare(b.problemId) || b.frequency - a.frequency);
  }

  state(): MistakeBookState {
    return { entries: this.entries(), history: this.history.map((h) => ({ ...h })) };
  }
}
