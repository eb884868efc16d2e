// "Did you mean …?" for names a user typed (flags, presets, modes, config fields): the closest known name by edit
// distance, when it is close enough to be a misspelling rather than a different word.

/** Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two neighbours cost 1. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The known name closest to `typed` (case-insensitive), if within a third of its length (at least 2 edits allowed
 * for short names; a prefix of a longer name also counts): `stpes` → `steps`, `paer` → `paper`, `lrr` → none of `lr`'s
 * far cousins.
 */
export function nearest(typed: string, known: Iterable<string>): string | undefined {
  const t = typed.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = editDistance(t, k.toLowerCase());
    if (d < bestD) [best, bestD] = [k, d];
  }
  if (best === undefined || bestD === 0) return best;
  const limit = Math.max(2, Math.floor(typed.length / 3));
  if (bestD <= limit) return best;
  const prefixed = [...known].filter((k) => t.length >= 3 && k.toLowerCase().startsWith(t));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** ` (did you mean 'x'?)` or '' — for appending to an error message. */
export function didYouMean(typed: string, known: Iterable<string>, quote = (s: string) => `'${s}'`): string {
  const n = nearest(typed, known);
  return n === undefined || n === typed ? '' : ` (did you mean ${quote(n)}?)`;
}
