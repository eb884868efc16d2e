// Run markers for the charts: a shape per run besides its colour (so two runs differ for a colour-blind reader and on
// a washed-out projector), drawn by uPlot as point paths, and the metrics a run's mode does not have.
import type uPlot from 'uplot';
import type { Mode } from '../../../rl/metrics';
import { modeRules } from '../../../rl/modes';
import type { ChartKey } from './series';

// Seven shapes: the six shipped reference runs (three modes × two seeds) and a live run all differ in shape.
export const MARKERS = ['circle', 'square', 'triangle', 'diamond', 'cross', 'down', 'x'] as const;
export type Marker = (typeof MARKERS)[number];
/** The same shapes as text, for the legends. */
export const MARKER_GLYPH: Record<Marker, string> = {
  circle: '●',
  square: '■',
  triangle: '▲',
  diamond: '◆',
  cross: '✚',
  down: '▼',
  x: '✖',
};

export function runMarker(index: number): Marker {
  return MARKERS[(index < 0 ? 0 : index) % MARKERS.length];
}

function addShape(p: Path2D, shape: Marker, x: number, y: number, r: number): void {
  switch (shape) {
    case 'circle':
      p.moveTo(x + r, y);
      p.arc(x, y, r, 0, 2 * Math.PI);
      break;
    case 'square':
      p.rect(x - r * 0.85, y - r * 0.85, 1.7 * r, 1.7 * r);
      break;
    case 'triangle':
      p.moveTo(x, y - r * 1.1);
      p.lineTo(x + r, y + r * 0.8);
      p.lineTo(x - r, y + r * 0.8);
      p.closePath();
      break;
    case 'diamond':
      p.moveTo(x, y - r * 1.2);
      p.lineTo(x + r, y);
      p.lineTo(x, y + r * 1.2);
      p.lineTo(x - r, y);
      p.closePath();
      break;
    case 'cross': {
      const w = r * 0.4;
      p.rect(x - r, y - w, 2 * r, 2 * w);
      p.rect(x - w, y - r, 2 * w, 2 * r);
      break;
    }
    case 'down':
      p.moveTo(x, y + r * 1.1);
      p.lineTo(x + r, y - r * 0.8);
      p.lineTo(x - r, y - r * 0.8);
      p.closePath();
      break;
    case 'x': {
      // The cross turned by 45°: its twelve corners, rotated.
      const w = r * 0.4;
      const c = Math.SQRT1_2;
      const pts = [
        [w, r],
        [w, w],
        [r, w],
        [r, -w],
        [w, -w],
        [w, -r],
        [-w, -r],
        [-w, -w],
        [-r, -w],
        [-r, w],
        [-w, w],
        [-w, r],
      ].map(([u, v]) => [x + c * (u - v), y + c * (u + v)]);
      p.moveTo(pts[0][0], pts[0][1]);
      for (const [px, py] of pts.slice(1)) p.lineTo(px, py);
      p.closePath();
      break;
    }
  }
}

/**
 * uPlot point paths that draw `shape` at the series' points, at most ~`most` of them (evenly spread, the last one
 * always), so a 1,000-step run still shows its marker without turning into a thick band.
 */
export function markerPaths(shape: Marker, sizePx: number, most = 24): uPlot.Series.Points.PathBuilder {
  return (u, seriesIdx, idx0, idx1) => {
    const xs = u.data[0];
    const ys = u.data[seriesIdx];
    const r = (sizePx / 2) * devicePixelRatio;
    const every = Math.max(1, Math.ceil((idx1 - idx0 + 1) / most));
    const p = new Path2D();
    const scaleKey = u.series[seriesIdx].scale ?? 'y';
    for (let i = idx0; i <= idx1; i++) {
      const y = ys[i];
      if (y === null || y === undefined || ((i - idx0) % every !== 0 && i !== idx1)) continue;
      addShape(p, shape, u.valToPos(xs[i], 'x', true), u.valToPos(y, scaleKey, true), r);
    }
    return { stroke: p, fill: p };
  };
}

/**
 * Whether a run of `mode` has a metric at all: golden mode has no Tester (no tester reward, validity or Mistake Book);
 * such series are left off the charts instead of drawn as flat zeros.
 */
export function metricExists(mode: Mode, key: ChartKey): boolean {
  const rules = modeRules(mode);
  if (key.startsWith('mistake_book/')) return rules.usesTester && rules.mistakeBook;
  if (key.startsWith('tester/') || key === 'completions/tester_mean_length') {
    if (!rules.usesTester) return false;
    // A tester that is never updated has no update statistics.
    const update = /\/(loss|kl|entropy|grad_norm|clip_ratio|frac_reward_zero_std)/.test(key);
    return !update || rules.trainsTester;
  }
  return true;
}
