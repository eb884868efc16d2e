// Held-out pass@1 per task family (`npm run targets -- by-family DIR`): each mode's seeds pooled, start and step,
// how many problems every sample passes, and code-a1 − self-play per family. Where a mode's gain comes from, and
// whether a family has room left for the modes to differ (a family every Coder solves cannot separate them).
import { summarize, type ProblemEval } from '../run/eval-ci';
import { modesInPageOrder } from './novelty-table';
import { atStep, pairedDelta, poolSeeds, showDelta, type PairedDelta, type TargetRun } from './targets';

/** One mode on one family: pass@1 at the step (%), the paired change from the start, problems all samples pass. */
export interface FamilyCell {
  end: number;
  delta: PairedDelta;
  allPass: number;
}

export interface FamilyRow {
  family: string;
  problems: number;
  /** pass@1 at step 0 (%) and problems all samples pass there: the modes share their start. */
  start: number;
  startAllPass: number;
  cells: Partial<Record<string, FamilyCell>>;
  /** code-a1 − self-play at the step, paired over the family's problems, when both ran. */
  gap?: PairedDelta;
}

const familyOf = (id: string) => id.split('/')[0];
/**
 * Fewer instances than this and a family's row is labelled exploratory: its interval rests on too few tasks to carry a
 * claim (a post-hoc look at where a pooled difference comes from, not evidence of its own).
 */
export const EXPLORATORY_BELOW = 30;
const allPass = (ps: readonly ProblemEval[]) => ps.filter((p) => p.n > 0 && p.passed === p.n).length;
const pass1 = (ps: readonly ProblemEval[]) => 100 * summarize(ps).coderPass1;

/**
 * One row per family of the held-out split (families in the order they first appear), then a row for all of them;
 * each mode's runs pooled over their seeds. Modes without per-problem records at 0 and at `step` are left out.
 */
export function familyRows(runs: readonly TargetRun[], step: number): { modes: string[]; rows: FamilyRow[] } {
  const modes = modesInPageOrder(runs);
  const pooled = new Map<string, { start: ProblemEval[]; end: ProblemEval[] }>();
  for (const mode of modes) {
    const mine = runs.filter((r) => r.mode === mode).sort((a, b) => a.seed - b.seed);
    const run = mine.length > 1 ? poolSeeds(mine) : mine[0];
    const [start, end] = [atStep(run, 0)?.perProblem, atStep(run, step)?.perProblem];
    if (start?.length && end?.length) pooled.set(mode, { start: [...start], end: [...end] });
  }
  const kept = modes.filter((m) => pooled.has(m));
  const first = pooled.get(kept[0]);
  if (!first) return { modes: [], rows: [] };
  const families = [...new Set(first.start.map((p) => familyOf(p.id)))];
  const row = (family: string, keep: (id: string) => boolean): FamilyRow => {
    const start = first.start.filter((p) => keep(p.id));
    const cells: Partial<Record<string, FamilyCell>> = {};
    const ends = new Map<string, ProblemEval[]>();
    for (const m of kept) {
      const x = pooled.get(m)!;
      const [s, e] = [x.start.filter((p) => keep(p.id)), x.end.filter((p) => keep(p.id))];
      const delta = pairedDelta(e, s, 'coderPass1');
      if (!delta) continue;
      ends.set(m, e);
      cells[m] = { end: pass1(e), delta, allPass: allPass(e) };
    }
    const [ca, sp] = [ends.get('code-a1'), ends.get('self-play')];
    const gap = ca && sp ? (pairedDelta(ca, sp, 'coderPass1') ?? undefined) : undefined;
    return { family, problems: start.length, start: pass1(start), startAllPass: allPass(start), cells, gap };
  };
  return { modes: kept, rows: [...families.map((f) => row(f, (id) => familyOf(id) === f)), row('all', () => true)] };
}

/** The markdown table: per family its problems, the start, each mode at the step with its change, and the gap. */
export function familyTable({ modes, rows }: { modes: string[]; rows: FamilyRow[] }, step: number): string[] {
  const gap = modes.includes('code-a1') && modes.includes('self-play');
  const head = [
    'family',
    'problems',
    'pass@1 at 0 (%) [all pass]',
    ...modes.map((m) => `${m} at ${step} (%) [all pass], Δ (points)`),
    ...(gap ? ['code-a1 − self-play (points)'] : []),
  ];
  const lines = rows.map((r) => {
    const cells = [
      r.family === 'all' ? '**all**' : r.problems < EXPLORATORY_BELOW ? `${r.family} (exploratory)` : r.family,
      String(r.problems),
      `${r.start.toFixed(1)} [${r.startAllPass}]`,
      ...modes.map((m) => {
        const c = r.cells[m];
        return c ? `${c.end.toFixed(1)} [${c.allPass}], ${showDelta(c.delta)}` : '–';
      }),
      ...(gap ? [r.gap ? showDelta(r.gap) : '–'] : []),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...lines];
}

export const FAMILIES_END = '<!-- families:end -->';
/** `<!-- families:begin step=100 dir=ws-ctrl2-100 -->` … end: the per-family table of those records. */
export const FAMILIES_BLOCK = /<!-- families:begin step=(\d+) dir=([^\s]+) -->[\s\S]*?<!-- families:end -->/g;
export const familiesBegin = (step: number, dir: string) => `<!-- families:begin step=${step} dir=${dir} -->`;
