// Plain-loop float64 references for causal GQA attention (training/prefill and decode); see attention.ts for layouts.
import type { AttentionShape } from './attention';
import type { DecodeShape } from './attention-decode';

type Arr = ArrayLike<number>;

/** lse of a query with no valid key, as the GPU writes it (the f32 nearest -3e38). */
export const NO_KEY_LSE = Math.fround(-3e38);

/** Softmax weights of query (row, h) over its visible keys; null when no key is valid. */
function weights(
  q: Arr,
  k: Arr,
  mask: Arr | null,
  s: AttentionShape,
  row: number,
  h: number,
): { j: number[]; p: number[]; lse: number } | null {
  const { S, Hq, Hkv, Dh } = s;
  const g = Math.floor(h / (Hq / Hkv));
  const scale = 1 / Math.sqrt(Dh);
  if (s.maskQueries && mask && mask[row] === 0) return null;
  const js: number[] = [];
  const sc: number[] = [];
  for (let j = row - (row % S); j <= row; j++) {
    if (mask && mask[j] === 0) continue;
    let dot = 0;
    for (let d = 0; d < Dh; d++) dot += q[(row * Hq + h) * Dh + d] * k[(j * Hkv + g) * Dh + d];
    js.push(j);
    sc.push(dot * scale);
  }
  if (!js.length) return null;
  const m = Math.max(...sc);
  const e = sc.map((x) => Math.exp(x - m));
  const sum = e.reduce((a, b) => a + b, 0);
  return { j: js, p: e.map((x) => x / sum), lse: m + Math.log(sum) };
}

export function attentionForwardRef(
  q: Arr,
  k: Arr,
  v: Arr,
  mask: Arr | null,
  s: AttentionShape,
): { out: Float64Array; lse: Float64Array } {
  const { B, S, Hq, Hkv, Dh } = s;
  const T = B * S;
  const out = new Float64Array(T * Hq * Dh);
  const lse = new Float64Array(T * Hq).fill(NO_KEY_LSE);
  for (let row = 0; row < T; row++) {
    for (let h = 0; h < Hq; h++) {
      const w = weights(q, k, mask, s, row, h);
      if (!w) continue;
      lse[row * Hq + h] = w.lse;
      const g = Math.floor(h / (Hq / Hkv));
      w.j.forEach((j, n) => {
        for (let d = 0; d < Dh; d++) out[(row * Hq + h) * Dh + d] += w.p[n] * v[(j * Hkv + g) * Dh + d];
      });
    }
  }
  return { out, lse };
}

/** Textbook softmax backward per (row, head), scattering into dk/dv; independent of the GPU's two-pass split. */
export function attentionBackwardRef(
  q: Arr,
  k: Arr,
  v: Arr,
  mask: Arr | null,
  dout: Arr,
  s: AttentionShape,
): { dq: Float64Array; dk: Float64Array; dv: Float64Array } {
  const { B, S, Hq, Hkv, Dh } = s;
  const T = B * S;
  const scale = 1 / Math.sqrt(Dh);
  const dq = new Float64Array(T * Hq * Dh);
  const dk = new Float64Array(T * Hkv * Dh);
  const dv = new Float64Array(T * Hkv * Dh);
  for (let row = 0; row < T; row++) {
    for (let h = 0; h < Hq; h++) {
      const w = weights(q, k, mask, s, row, h);
      if (!w) continue;
      const g = Math.floor(h / (Hq / Hkv));
      const qo = (row * Hq + h) * Dh;
      // dP_j = dO · v_j; dS_j = P_j (dP_j − Σ_i P_i dP_i)
      const dP = w.j.map((j) => {
        let x = 0;
        for (let d = 0; d < Dh; d++) x += dout[qo + d] * v[(j * Hkv + g) * Dh + d];
        return x;
      });
      const mean = w.p.reduce((a, p, n) => a + p * dP[n], 0);
      w.j.forEach((j, n) => {
        const ds = w.p[n] * (dP[n] - mean) * scale;
        const ko = (j * Hkv + g) * Dh;
        for (let d = 0; d < Dh; d++) {
          dq[qo + d] += ds * k[ko + d];
          dk[ko + d] += ds * q[qo + d];
          dv[ko + d] += w.p[n] * dout[qo + d];
        }
      });
    }
  }
  return { dq, dk, dv };
}

/** Decode reference: q [B, Hq, Dh] against caches [B, Hkv, maxLen, Dh], keys 0..lens[b]-1 with keyValid [B, maxLen]. */
export function attentionDecodeRef(
  q: Arr,
  kCache: Arr,
  vCache: Arr,
  lens: Arr,
  keyValid: Arr | null,
  s: DecodeShape,
): Float64Array {
  const { B, Hq, Hkv, Dh, maxLen } = s;
  const out = new Float64Array(B * Hq * Dh);
  const scale = 1 / Math.sqrt(Dh);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < Hq; h++) {
      const g = Math.floor(h / (Hq / Hkv));
      const base = (b * Hkv + g) * maxLen;
      const js: number[] = [];
      const sc: number[] = [];
      for (let j = 0; j < Math.min(lens[b], maxLen); j++) {
        if (keyValid && keyValid[b * maxLen + j] === 0) continue;
        let dot = 0;
        for (let d = 0; d < Dh; d++) dot += q[(b * Hq + h) * Dh + d] * kCache[(base + j) * Dh + d];
        js.push(j);
        sc.push(dot * scale);
      }
      if (!js.length) continue;
      const m = Math.max(...sc);
      const e = sc.map((x) => Math.exp(x - m));
      const sum = e.reduce((a, x) => a + x, 0);
      js.forEach((j, n) => {
        for (let d = 0; d < Dh; d++) out[(b * Hq + h) * Dh + d] += (e[n] / sum) * vCache[(base + j) * Dh + d];
      });
    }
  }
  return out;
}
