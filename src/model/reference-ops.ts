// Plain-loop float64 building blocks of the CPU reference model, each forward with its backward.
// Row-major everywhere: activations are [T, width] with T = batch · seqLen; Linear weights are HF [out, in].

export type F64 = Float64Array;

/** y[T,out] = x[T,in] · Wᵀ + b. */
export function linear(
  x: F64,
  w: ArrayLike<number>,
  b: ArrayLike<number> | undefined,
  T: number,
  nIn: number,
  nOut: number,
): F64 {
  const y = new Float64Array(T * nOut);
  for (let t = 0; t < T; t++) {
    for (let o = 0; o < nOut; o++) {
      let s = b ? b[o] : 0;
      for (let i = 0; i < nIn; i++) s += x[t * nIn + i] * w[o * nIn + i];
      y[t * nOut + o] = s;
    }
  }
  return y;
}

/** Returns dx; accumulates dW (+= dyᵀ·x) and db (+= Σ_t dy). */
export function linearBackward(
  dy: F64,
  x: F64,
  w: ArrayLike<number>,
  T: number,
  nIn: number,
  nOut: number,
  dw: F64,
  db?: F64,
): F64 {
  const dx = new Float64Array(T * nIn);
  for (let t = 0; t < T; t++) {
    for (let o = 0; o < nOut; o++) {
      const g = dy[t * nOut + o];
      if (g === 0) continue;
      if (db) db[o] += g;
      for (let i = 0; i < nIn; i++) {
        dx[t * nIn + i] += g * w[o * nIn + i];
        dw[o * nIn + i] += g * x[t * nIn + i];
      }
    }
  }
  return dx;
}

/** y = x / rms(x) · w per row; returns y and the per-row 1/rms needed by the backward. */
export function rmsnorm(x: F64, w: ArrayLike<number>, T: number, n: number, eps: number): { y: F64; rinv: F64 } {
  const y = new Float64Array(T * n);
  const rinv = new Float64Array(T);
  for (let t = 0; t < T; t++) {
    let ss = 0;
    for (let i = 0; i < n; i++) ss += x[t * n + i] ** 2;
    const r = 1 / Math.sqrt(ss / n + eps);
    rinv[t] = r;
    for (let i = 0; i < n; i++) y[t * n + i] = x[t * n + i] * r * w[i];
  }
  return { y, rinv };
}

/** dx_i = r·w_i·dy_i − x_i·r³/n · Σ_j dy_j·w_j·x_j; dw_i += Σ_t dy_i·x_i·r. */
export function rmsnormBackward(dy: F64, x: F64, w: ArrayLike<number>, rinv: F64, T: number, n: number, dw: F64): F64 {
  const dx = new Float64Array(T * n);
  for (let t = 0; t < T; t++) {
    const r = rinv[t];
    let dot = 0;
    for (let i = 0; i < n; i++) dot += dy[t * n + i] * w[i] * x[t * n + i];
    for (let i = 0; i < n; i++) {
      const j = t * n + i;
      dw[i] += dy[j] * x[j] * r;
      dx[j] = r * w[i] * dy[j] - (x[j] * r * r * r * dot) / n;
    }
  }
  return dx;
}

/**
 * HF rotate-half RoPE in place on [T, nHeads·hd]: pairs (j, j + hd/2) rotate by pos · θ^(−2j/hd).
 * `inverse` rotates by the negative angle, which is the backward (the rotation is orthogonal).
 */
export function rope(
  x: F64,
  positions: ArrayLike<number>,
  T: number,
  nHeads: number,
  hd: number,
  theta: number,
  inverse = false,
): void {
  const half = hd / 2;
  for (let t = 0; t < T; t++) {
    const pos = positions[t];
    for (let j = 0; j < half; j++) {
      const ang = pos * Math.pow(theta, (-2 * j) / hd);
      const c = Math.cos(ang);
      const s = inverse ? -Math.sin(ang) : Math.sin(ang);
      for (let h = 0; h < nHeads; h++) {
        const base = t * nHeads * hd + h * hd;
        const a = x[base + j];
        const b = x[base + j + half];
        x[base + j] = a * c - b * s;
        x[base + j + half] = b * c + a * s;
      }
    }
  }
}

export interface AttnShape {
  B: number;
  S: number;
  heads: number;
  kvHeads: number;
  hd: number;
}

/** Query and key/value row widths, query heads per key/value head, and the 1/√hd score scale. */
function attnWidths({ heads, kvHeads, hd }: AttnShape) {
  return { qW: heads * hd, kW: kvHeads * hd, group: heads / kvHeads, scale: 1 / Math.sqrt(hd), hd };
}

/**
 * Causal GQA attention. Query (b,i) sees keys j ≤ i with valid[b,j] ≠ 0; a row with no visible key outputs zeros.
 * q [T, heads·hd], k/v [T, kvHeads·hd] (T = B·S) → out [T, heads·hd] and probs [B, heads, S, S].
 */
export function attention(q: F64, k: F64, v: F64, valid: ArrayLike<number>, sh: AttnShape): { out: F64; probs: F64 } {
  const { B, S, heads } = sh;
  const { qW, kW, group, scale, hd } = attnWidths(sh);
  const out = new Float64Array(B * S * qW);
  const probs = new Float64Array(B * heads * S * S);
  const sc = new Float64Array(S);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < heads; h++) {
      const g = Math.floor(h / group);
      for (let i = 0; i < S; i++) {
        const qo = (b * S + i) * qW + h * hd;
        let m = -Infinity;
        for (let j = 0; j <= i; j++) {
          if (!valid[b * S + j]) continue;
          const ko = (b * S + j) * kW + g * hd;
          let s = 0;
          for (let d = 0; d < hd; d++) s += q[qo + d] * k[ko + d];
          sc[j] = s * scale;
          m = Math.max(m, sc[j]);
        }
        if (m === -Infinity) continue;
        let sum = 0;
        for (let j = 0; j <= i; j++) if (valid[b * S + j]) sum += Math.exp(sc[j] - m);
        const pRow = ((b * heads + h) * S + i) * S;
        for (let j = 0; j <= i; j++) {
          if (!valid[b * S + j]) continue;
          const p = Math.exp(sc[j] - m) / sum;
          probs[pRow + j] = p;
          const vo = (b * S + j) * kW + g * hd;
          for (let d = 0; d < hd; d++) out[qo + d] += p * v[vo + d];
        }
      }
    }
  }
  return { out, probs };
}

/** Backward of `attention` given its probs: returns dq, dk, dv (kv grads summed over the heads of each group). */
export function attentionBackward(
  dOut: F64,
  q: F64,
  k: F64,
  v: F64,
  probs: F64,
  sh: AttnShape,
): { dq: F64; dk: F64; dv: F64 } {
  const { B, S, heads } = sh;
  const { qW, kW, group, scale, hd } = attnWidths(sh);
  const dq = new Float64Array(B * S * qW);
  const dk = new Float64Array(B * S * kW);
  const dv = new Float64Array(B * S * kW);
  const dp = new Float64Array(S);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < heads; h++) {
      const g = Math.floor(h / group);
      for (let i = 0; i < S; i++) {
        const qo = (b * S + i) * qW + h * hd;
        const pRow = ((b * heads + h) * S + i) * S;
        let rowDot = 0;
        for (let j = 0; j <= i; j++) {
          const p = probs[pRow + j];
          if (p === 0) {
            dp[j] = 0;
            continue;
          }
          const vo = (b * S + j) * kW + g * hd;
          let s = 0;
          for (let d = 0; d < hd; d++) {
            s += dOut[qo + d] * v[vo + d];
            dv[vo + d] += p * dOut[qo + d];
          }
          dp[j] = s;
          rowDot += p * s;
        }
        for (let j = 0; j <= i; j++) {
          const p = probs[pRow + j];
          if (p === 0) continue;
          const ds = p * (dp[j] - rowDot) * scale;
          const ko = (b * S + j) * kW + g * hd;
          for (let d = 0; d < hd; d++) {
            dq[qo + d] += ds * k[ko + d];
            dk[ko + d] += ds * q[qo + d];
          }
        }
      }
    }
  }
  return { dq, dk, dv };
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** a = silu(g) · u. */
export function swiglu(g: F64, u: F64): F64 {
  const a = new Float64Array(g.length);
  for (let i = 0; i < g.length; i++) a[i] = g[i] * sigmoid(g[i]) * u[i];
  return a;
}

export function swigluBackward(da: F64, g: F64, u: F64): { dg: F64; du: F64 } {
  const dg = new Float64Array(g.length);
  const du = new Float64Array(g.length);
  for (let i = 0; i < g.length; i++) {
    const s = sigmoid(g[i]);
    const silu = g[i] * s;
    du[i] = da[i] * silu;
    dg[i] = da[i] * u[i] * s * (1 + g[i] * (1 - s));
  }
  return { dg, du };
}

/** Row-wise log-softmax of logits [T, V]. */
export function logSoftmax(logits: F64, T: number, V: number): F64 {
  const out = new Float64Array(T * V);
  for (let t = 0; t < T; t++) {
    let m = -Infinity;
    for (let i = 0; i < V; i++) m = Math.max(m, logits[t * V + i]);
    let s = 0;
    for (let i = 0; i < V; i++) s += Math.exp(logits[t * V + i] - m);
    const lse = m + Math.log(s);
    for (let i = 0; i < V; i++) out[t * V + i] = logits[t * V + i] - lse;
  }
  return out;
}
