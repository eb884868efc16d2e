// Run colours of the charts and the runs table: one per run, kept while other runs come and go.
import type { LabState } from '../../store/types';

/** One colour per run (Tableau 10, distinguishable and ≥ 3:1 on white). */
export const RUN_COLORS = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#9467bd',
  '#ff7f0e',
  '#17becf',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
];

/** A run keeps its colour while others are added, hidden or removed: the colour follows its place in the list. */
export function runColor(s: Pick<LabState, 'series'>, id: string): string {
  const i = s.series.findIndex((r) => r.id === id);
  return RUN_COLORS[(i < 0 ? 0 : i) % RUN_COLORS.length];
}
