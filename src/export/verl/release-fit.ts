// The release's settings for the cluster's model size (its 1.5B, 3B and 7B configs), and the lab values that stray
// far from them: a config tuned for the lab's ~1 M-parameter models (lr 2e-4, 128-token answers) put on a 1.5B model
// runs, but not as an experiment anyone tuned, so the export says so field by field, or takes the release's values.
import releaseConfigs from './fixtures/release-configs.json' with { type: 'json' };
import type { Json } from './keys';

export type ReleaseSize = '1.5B' | '3B' | '7B';
const SIZES: readonly ReleaseSize[] = ['1.5B', '3B', '7B'];

/** The release's config for a model: by the parameter count in its name (Qwen2.5-Coder-7B-Instruct → 7B). */
export function releaseSizeFor(modelPath: string): { size: ReleaseSize; guessed: boolean } {
  const m = /(\d+(?:\.\d+)?)\s*B(?![a-z])/i.exec(modelPath.split('/').pop() ?? modelPath);
  if (!m) return { size: '1.5B', guessed: true };
  const b = Number(m[1]);
  // The nearest of the release's sizes on a log scale.
  const size = SIZES.reduce((best, s) =>
    Math.abs(Math.log(parseFloat(s) / b)) < Math.abs(Math.log(parseFloat(best) / b)) ? s : best,
  );
  return { size, guessed: false };
}

export function releaseConfig(size: ReleaseSize): Record<string, Json> {
  return (releaseConfigs.configs as Record<string, Record<string, Json>>)[`${size}_A1`];
}

/** How far apart two settings are: max/min, Infinity when one is 0 and the other not. */
function ratio(a: number, b: number): number {
  if (a === b) return 1;
  if (a <= 0 || b <= 0) return Infinity;
  return Math.max(a / b, b / a);
}

/**
 * Each lab-set key whose value differs from the release's for this model size by more than `factor` (numbers), or at
 * all (other values), as one line naming the key, the lab field, both values and the ratio.
 */
export function hparamGaps(
  flat: Record<string, Json>,
  labKeys: ReadonlyMap<string, string>,
  size: ReleaseSize,
  factor = 3,
): string[] {
  const rel = releaseConfig(size);
  const out: string[] = [];
  for (const [key, field] of labKeys) {
    const mine = flat[key];
    const theirs = rel[key];
    if (theirs === undefined) continue;
    if (typeof mine === 'number' && typeof theirs === 'number') {
      const r = ratio(mine, theirs);
      if (r > factor)
        out.push(
          `${key} = ${mine} (lab ${field}) is ${Number.isFinite(r) ? `${r >= 10 ? Math.round(r) : r.toFixed(1)}x ${mine > theirs ? 'above' : 'below'}` : 'far from'} the release's ${theirs} for a ${size} model`,
        );
    } else if (JSON.stringify(mine) !== JSON.stringify(theirs) && typeof theirs !== 'string') {
      out.push(
        `${key} = ${JSON.stringify(mine)} (lab ${field}); the release uses ${JSON.stringify(theirs)} for a ${size} model`,
      );
    } else if (typeof mine === 'string' && mine !== theirs) {
      out.push(`${key} = ${mine} (lab ${field}); the release uses ${String(theirs)} for a ${size} model`);
    }
  }
  return out;
}
