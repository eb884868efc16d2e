// Transformer building blocks as standard ONNX ops (opset 17): RMSNorm, rotate-half RoPE, causal GQA attention, SwiGLU.
import type { ModelConfig } from '../config';
import type { GraphBuilder } from './graph';

/** y = x / sqrt(mean(x²) + eps) · w over the last axis (ReduceMean keeps axes as an attribute up to opset 17). */
export function rmsnorm(g: GraphBuilder, x: string, w: string, eps: number, name: string): string {
  const sq = g.op('Mul', [x, x], {}, `${name}.sq`);
  const ms = g.op('ReduceMean', [sq], { axes: [-1], keepdims: 1 }, `${name}.ms`);
  const rms = g.op('Sqrt', [g.op('Add', [ms, g.f32('eps', [eps], true)], {}, `${name}.mseps`)], {}, `${name}.rms`);
  return g.op('Mul', [g.op('Div', [x, rms], {}, `${name}.xhat`), w], {}, name);
}

/**
 * cos/sin tables [maxSeqLen, headDim] for HF's rotate-half RoPE: angle(p, j) = p · θ^(−2j/hd) for j < hd/2, repeated
 * for the second half. Computed in float64 and rounded once, like the float64 reference.
 */
export function ropeTables(c: ModelConfig): { cos: Float32Array; sin: Float32Array } {
  const hd = c.headDim;
  const half = hd / 2;
  const cos = new Float32Array(c.maxSeqLen * hd);
  const sin = new Float32Array(c.maxSeqLen * hd);
  for (let p = 0; p < c.maxSeqLen; p++) {
    for (let j = 0; j < half; j++) {
      const ang = p * Math.pow(c.ropeTheta, (-2 * j) / hd);
      cos[p * hd + j] = cos[p * hd + j + half] = Math.cos(ang);
      sin[p * hd + j] = sin[p * hd + j + half] = Math.sin(ang);
    }
  }
  return { cos, sin };
}

/** x·cos + rotate_half(x)·sin on [B, heads, S, hd], rotate_half(x) = concat(−x[half:], x[:half]); cos/sin [S, hd]. */
export function rope(g: GraphBuilder, x: string, cos: string, sin: string, hd: number, name: string): string {
  const half = hd / 2;
  const axis = g.i64('axis_last', [-1]);
  const x1 = g.op('Slice', [x, g.i64('zero1', [0]), g.i64('half', [half]), axis], {}, `${name}.x1`);
  const x2 = g.op('Slice', [x, g.i64('half', [half]), g.i64('hd', [hd]), axis], {}, `${name}.x2`);
  const rot = g.op('Concat', [g.op('Neg', [x2], {}, `${name}.negx2`), x1], { axis: -1 }, `${name}.rot`);
  return g.op(
    'Add',
    [g.op('Mul', [x, cos], {}, `${name}.xcos`), g.op('Mul', [rot, sin], {}, `${name}.rotsin`)],
    {},
    name,
  );
}

/** [B, S, n·hd] → [B, n, S, hd]. */
export function splitHeads(g: GraphBuilder, x: string, n: number, hd: number, name: string): string {
  const r = g.op('Reshape', [x, g.i64(`shape_heads${n}`, [0, 0, n, hd])], {}, `${name}.bshd`);
  return g.op('Transpose', [r], { perm: [0, 2, 1, 3] }, name);
}

/** [B, kvHeads, T, hd] → [B, kvHeads·group, T, hd], each kv head repeated for its group of query heads. */
export function repeatKv(g: GraphBuilder, x: string, c: ModelConfig, name: string): string {
  const group = c.heads / c.kvHeads;
  if (group === 1) return x;
  const u = g.op('Unsqueeze', [x, g.i64('axis2', [2])], {}, `${name}.unsq`);
  const e = g.op('Expand', [u, g.i64('expand_group', [1, 1, group, 1, 1])], {}, `${name}.expand`);
  return g.op('Reshape', [e, g.i64('shape_rep', [0, c.heads, -1, c.headDim])], {}, name);
}

/** Causal "future" flags [S, T]: query i (absolute index past + i) must not see key j > past + i. */
export function causalFuture(g: GraphBuilder, positions: string, total: string): string {
  const keys = g.op('Range', [g.i64('zero', [0], true), total, g.i64('one', [1], true)], {}, 'key_index');
  const rows = g.op('Unsqueeze', [positions, g.i64('axis1', [1])], {}, 'query_index');
  return g.op('Greater', [keys, rows], {}, 'future');
}

/** Padding flags [B, 1, 1, T] from an HF attention_mask [B, T] (0 = pad key, never attended to). */
export function paddingFlags(g: GraphBuilder, attentionMask: string): string {
  const pad = g.op('Equal', [attentionMask, g.i64('zero', [0], true)], {}, 'pad_keys');
  return g.op('Unsqueeze', [pad, g.i64('axes12', [1, 2])], {}, 'pad_keys_b11t');
}

/**
 * Additive mask from boolean "blocked" flags: −1e30 where blocked, else 0. −1e30 underflows to exactly 0 after
 * softmax (no −∞ arithmetic on any EP); a row with every key blocked (a pad query) stays finite, just meaningless.
 */
export function additiveMask(g: GraphBuilder, blocked: string): string {
  return g.op('Where', [blocked, g.f32('neg_big', [-1e30], true), g.f32('zero_f', [0], true)], {}, 'attn_mask');
}

/** softmax(q·kᵀ/√hd + mask)·v on [B, heads, S, hd] × [B, heads, T, hd] → [B, S, heads·hd]. */
export function attention(
  g: GraphBuilder,
  q: string,
  k: string,
  v: string,
  mask: string,
  c: ModelConfig,
  name: string,
): string {
  const kt = g.op('Transpose', [k], { perm: [0, 1, 3, 2] }, `${name}.kt`);
  const raw = g.op('MatMul', [q, kt], {}, `${name}.qk`);
  const scaled = g.op('Mul', [raw, g.f32('attn_scale', [1 / Math.sqrt(c.headDim)], true)], {}, `${name}.scores`);
  const probs = g.op('Softmax', [g.op('Add', [scaled, mask], {}, `${name}.masked`)], { axis: -1 }, `${name}.probs`);
  const out = g.op('MatMul', [probs, v], {}, `${name}.pv`);
  const bshd = g.op('Transpose', [out], { perm: [0, 2, 1, 3] }, `${name}.bshd`);
  return g.op('Reshape', [bshd, g.i64('shape_merge', [0, 0, -1])], {}, name);
}

/** down(silu(gate(x)) · up(x)), silu(a) = a · sigmoid(a). */
export function swiglu(g: GraphBuilder, x: string, gate: string, up: string, down: string, name: string): string {
  const a = g.op('MatMul', [x, gate], {}, `${name}.gate`);
  const u = g.op('MatMul', [x, up], {}, `${name}.up`);
  const silu = g.op('Mul', [a, g.op('Sigmoid', [a], {}, `${name}.sig`)], {}, `${name}.silu`);
  return g.op('MatMul', [g.op('Mul', [silu, u], {}, `${name}.act`), down], {}, name);
}
