// `npm run pretrain -- --extra-families a,b`: which families outside the preset may join the warm-start corpus.
import { familyByName, HELDOUT_FAMILIES } from '../tasks/generate';
import type { Problem } from '../tasks/types';

/**
 * The families named in `raw` (comma-separated), checked: each must exist and must not be one the preset already
 * trains on or holds out, since a held-out family in the warm-start corpus would make its evaluation meaningless.
 */
export function extraFamilies(
  raw: string | boolean | undefined,
  cur: { train: readonly Problem[]; heldoutFamily: readonly Problem[] },
): string[] {
  if (raw === undefined) return [];
  if (typeof raw !== 'string' || !raw.trim()) throw new Error('--extra-families needs a comma-separated family list');
  const names = [...new Set(raw.split(',').map((s) => s.trim()))].filter(Boolean);
  const trained = new Set(cur.train.map((p) => p.family));
  // Every curriculum holds these out whole (the preset's own held-out family among them).
  const heldout = new Set([...HELDOUT_FAMILIES, ...cur.heldoutFamily.map((p) => p.family)]);
  for (const n of names) {
    familyByName(n); // throws `unknown family "n"`
    if (heldout.has(n))
      throw new Error(`--extra-families ${n}: that family is held out; training on it would leak its evaluation`);
    if (trained.has(n)) throw new Error(`--extra-families ${n}: the preset already trains on it`);
  }
  return names;
}
