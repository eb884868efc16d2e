// `npm run pretrain -- --families a,b` / `--extra-families a,b`: the warm-start's families in place of the preset's, and
// which families outside them may join its corpus.
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

/**
 * `--families a,b`: the curriculum families to warm-start on in place of the preset's, each checked to exist; a
 * list of held-out families only is refused, since it leaves no training instance.
 */
export function presetFamilies(raw: string | boolean | undefined, preset: readonly string[]): string[] {
  if (raw === undefined) return [...preset];
  if (typeof raw !== 'string' || !raw.trim()) throw new Error('--families needs a comma-separated family list');
  const names = [...new Set(raw.split(',').map((s) => s.trim()))].filter(Boolean);
  for (const n of names) familyByName(n); // throws `unknown family "n"`
  if (names.every((n) => HELDOUT_FAMILIES.includes(n)))
    throw new Error(`--families ${names.join(',')}: only held-out families, so there is nothing to train on`);
  return names;
}
