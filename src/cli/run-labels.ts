// Names for run directories shown side by side (plot legends): the directory's own name, or parent/name where two of
// them share it (golden-s1 from two records directories), so no two series read alike.
import { basename, dirname, resolve } from 'node:path';

export function runLabels(dirs: readonly string[]): string[] {
  const own = dirs.map((d) => basename(resolve(d)));
  const count = new Map<string, number>();
  for (const n of own) count.set(n, (count.get(n) ?? 0) + 1);
  const labels = dirs.map((d, i) => (count.get(own[i])! > 1 ? `${basename(dirname(resolve(d)))}/${own[i]}` : own[i]));
  const dup = labels.find((l, i) => labels.indexOf(l) !== i);
  if (dup) throw new Error(`two runs would both be labelled "${dup}": pass each run directory once`);
  return labels;
}
