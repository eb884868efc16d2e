// Every single-line corruption of a run's step records (a line repeated, dropped, swapped; two runs in one file), and
// minimal records to corrupt: for the tests that show each reader refuses them.
import type { StepMetrics } from '../rl/metrics';

/** Every single-line corruption of a list: a line repeated (twice in a row, or later), dropped, or swapped. */
export function corruptions<T>(xs: T[]): { what: string; xs: T[] }[] {
  const out: { what: string; xs: T[] }[] = [];
  for (let i = 0; i < xs.length; i++) {
    out.push({ what: `line ${i + 1} repeated`, xs: [...xs.slice(0, i + 1), xs[i], ...xs.slice(i + 1)] });
    out.push({ what: `line ${i + 1} appended again`, xs: [...xs, xs[i]] });
    if (i < xs.length - 1) out.push({ what: `line ${i + 1} dropped`, xs: [...xs.slice(0, i), ...xs.slice(i + 1)] });
    if (i < xs.length - 1)
      out.push({
        what: `lines ${i + 1}, ${i + 2} swapped`,
        xs: [...xs.slice(0, i), xs[i + 1], xs[i], ...xs.slice(i + 2)],
      });
  }
  // The bug this guards: a second run's records written after the first's.
  out.push({ what: 'two runs in one file', xs: [...xs, ...xs] });
  return out;
}

export const jsonl = (xs: object[]) => xs.map((x) => JSON.stringify(x) + '\n').join('');
export const metric = (step: number) => ({ step, mode: 'code-a1', time: step }) as StepMetrics;
export const evalPoint = (step: number) => ({ step, rows: [] });
export const history = (step: number) => ({ step, size: step, added: 1, removed: 0 });
