// Mistake Book explorer logic: search, frequency filter, per-problem grouping.
import type { MistakeEntry } from '../../../rl/records';

export interface ProblemGroup {
  problemId: string;
  entries: MistakeEntry[];
  totalFrequency: number;
}

/** Case-insensitive match on the test text or the problem id; entries below minFrequency are dropped. */
export function filterMistakes(entries: MistakeEntry[], query: string, minFrequency: number): MistakeEntry[] {
  const q = query.trim().toLowerCase();
  return entries.filter(
    (e) =>
      e.frequency >= minFrequency && (!q || e.test.toLowerCase().includes(q) || e.problemId.toLowerCase().includes(q)),
  );
}

/** Groups by problem, most-frequent problems first; within a group, highest frequency first (the replay order). */
export function groupByProblem(entries: MistakeEntry[]): ProblemGroup[] {
  const map = new Map<string, MistakeEntry[]>();
  for (const e of entries) {
    const list = map.get(e.problemId) ?? [];
    list.push(e);
    map.set(e.problemId, list);
  }
  return [...map.entries()]
    .map(([problemId, list]) => ({
      problemId,
      entries: list.slice().sort((a, b) => b.frequency - a.frequency || a.stepBorn - b.stepBorn),
      totalFrequency: list.reduce((s, e) => s + e.frequency, 0),
    }))
    .sort((a, b) => b.totalFrequency - a.totalFrequency || a.problemId.localeCompare(b.problemId));
}
