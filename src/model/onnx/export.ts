// Lab model → ONNX ModelProto bytes (opset 17, standard ops only): input_ids [B, S] → logits [B, S, V], optionally
// with past/present KV tensors for generation. Browser-safe: pure TypeScript + protobufjs, no Node APIs.
import type { Layout } from '../layout';
import { view } from '../layout';
import {
  additiveMask,
  attention,
  causalFuture,
  paddingFlags,
  repeatKv,
  rmsnorm,
  rope,
  ropeTables,
  splitHeads,
  swiglu,
} from './blocks';
import { GraphBuilder } from './graph';
import { DT } from './schema';
import { linearWeight, type OnnxQuant } from './weights';

export const ONNX_OPSET = 17;
/** IR version 8 is the one that goes with opset 17. */
export const ONNX_IR_VERSION = 8;

export interface OnnxExportOptions {
  /**
   * Adds inputs past_key_values.{l}.key/value [B, kvHeads, P, hd] and outputs present.{l}.key/value
   * [B, kvHeads, P + S, hd] (HF Optimum names); positions run from P. Without it, positions run from 0.
   */
  kvCache?: boolean;
  /**
   * Adds attention_mask [B, P + S] (int64, 0 = padding key) and position_ids [B, S] (int64, RoPE positions) inputs,
   * the names HF Optimum / transformers.js feed, so left-padded batches work. Without it, positions are P .. P+S−1
   * and every key is real.
   */
  attentionMask?: boolean;
  /** Weight-only int8 for the Linear layers (embeddings and norms stay fp32), with quant.ts's codes and scales. */
  quant?: OnnxQuant;
  /** Graph name and extra metadata_props (e.g. role: coder, run, step). */
  name?: string;
  metadata?: Record<string, string>;
}

/** The names an exported graph uses for its inputs and outputs. */
export const onnxNames = {
  inputIds: 'input_ids',
  attentionMask: 'attention_mask',
  positionIds: 'position_ids',
  logits: 'logits',
  pastKey: (l: number) => `past_key_values.${l}.key`,
  pastValue: (l: number) => `past_key_values.${l}.value`,
  presentKey: (l: number) => `present.${l}.key`,
  presentValue: (l: number) => `present.${l}.value`,
};

/**
 * Builds the ONNX model of a lab model from its flat f32 parameters (the layout's order, padding ignored).
 * Positions must stay below config.maxSeqLen (the RoPE tables' length); longer inputs fail in Gather.
 */
export function exportOnnx(params: Float32Array, layout: Layout, opts: OnnxExportOptions = {}): Uint8Array {
  const c = layout.config;
  if (params.length < layout.totalFloats)
    throw new Error(`exportOnnx: params has ${params.length} floats, layout needs ${layout.totalFloats}`);
  const g = new GraphBuilder();
  const ids = g.input(onnxNames.inputIds, DT.INT64, ['batch', 'sequence']);
  const hfMask = opts.attentionMask
    ? g.input(onnxNames.attentionMask, DT.INT64, ['batch', 'total_sequence'])
    : undefined;
  const positionIds = opts.attentionMask ? g.input(onnxNames.positionIds, DT.INT64, ['batch', 'sequence']) : undefined;
  const past = opts.kvCache
    ? layout.layers.map((_, l) => ({
        k: g.input(onnxNames.pastKey(l), DT.FLOAT, ['batch', c.kvHeads, 'past_sequence', c.headDim]),
        v: g.input(onnxNames.pastValue(l), DT.FLOAT, ['batch', c.kvHeads, 'past_sequence', c.headDim]),
      }))
    : undefined;

  // Sequence indices P .. P+S−1 (P = past length) drive the causal mask over all P+S keys; RoPE uses them too
  // unless position_ids are given (left padding: the first real token sits at position 0).
  const seqLen = g.op(
    'Gather',
    [g.op('Shape', [ids], {}, 'ids_shape'), g.i64('idx1', [1], true)],
    { axis: 0 },
    'seq_len',
  );
  const pastLen = past
    ? g.op('Gather', [g.op('Shape', [past[0].k], {}, 'past_shape'), g.i64('idx2', [2], true)], { axis: 0 }, 'past_len')
    : g.i64('zero', [0], true);
  const total = g.op('Add', [pastLen, seqLen], {}, 'total_len');
  const positions = g.op('Range', [pastLen, total, g.i64('one', [1], true)], {}, 'positions');
  const tables = ropeTables(c);
  const cosT = g.init('rope.cos', DT.FLOAT, [c.maxSeqLen, c.headDim], tables.cos);
  const sinT = g.init('rope.sin', DT.FLOAT, [c.maxSeqLen, c.headDim], tables.sin);
  let cos: string;
  let sin: string;
  let mask: string;
  if (positionIds && hfMask) {
    // [B, S, hd] rows → [B, 1, S, hd], broadcast over heads.
    const perRow = (t: string, n: string) =>
      g.op('Unsqueeze', [g.op('Gather', [t, positionIds], { axis: 0 }, `${n}_bshd`), g.i64('axis1', [1])], {}, n);
    cos = perRow(cosT, 'cos');
    sin = perRow(sinT, 'sin');
    mask = additiveMask(g, g.op('Or', [causalFuture(g, positions, total), paddingFlags(g, hfMask)], {}, 'blocked'));
  } else {
    cos = g.op('Gather', [cosT, positions], { axis: 0 }, 'cos');
    sin = g.op('Gather', [sinT, positions], { axis: 0 }, 'sin');
    mask = additiveMask(g, causalFuture(g, positions, total));
  }

  const P = (t: Parameters<typeof view>[1]) => view(params, t);
  const embed = g.init(layout.embed.name, DT.FLOAT, layout.embed.shape, P(layout.embed));
  let x = g.op('Gather', [embed, ids], { axis: 0 }, 'embeds');
  const presents: string[] = [];
  layout.layers.forEach((L, l) => {
    const n = `l${l}`;
    const h1 = rmsnorm(
      g,
      x,
      g.init(L.inputNorm.name, DT.FLOAT, L.inputNorm.shape, P(L.inputNorm)),
      c.rmsEps,
      `${n}.norm1`,
    );
    const proj = (w: typeof L.q, b: typeof L.qBias, name: string) => {
      const y = g.op('MatMul', [h1, linearWeight(g, params, w, opts.quant)], {}, `${n}.${name}_mm`);
      return b ? g.op('Add', [y, g.init(b.name, DT.FLOAT, b.shape, P(b))], {}, `${n}.${name}`) : y;
    };
    const q = rope(
      g,
      splitHeads(g, proj(L.q, L.qBias, 'q'), c.heads, c.headDim, `${n}.q_heads`),
      cos,
      sin,
      c.headDim,
      `${n}.q_rope`,
    );
    let k = rope(
      g,
      splitHeads(g, proj(L.k, L.kBias, 'k'), c.kvHeads, c.headDim, `${n}.k_heads`),
      cos,
      sin,
      c.headDim,
      `${n}.k_rope`,
    );
    let v = splitHeads(g, proj(L.v, L.vBias, 'v'), c.kvHeads, c.headDim, `${n}.v_heads`);
    if (past) {
      k = g.op('Concat', [past[l].k, k], { axis: 2 }, onnxNames.presentKey(l));
      v = g.op('Concat', [past[l].v, v], { axis: 2 }, onnxNames.presentValue(l));
      presents.push(k, v);
    }
    const attn = attention(
      g,
      q,
      repeatKv(g, k, c, `${n}.k_rep`),
      repeatKv(g, v, c, `${n}.v_rep`),
      mask,
      c,
      `${n}.attn`,
    );
    const o = g.op('MatMul', [attn, linearWeight(g, params, L.o, opts.quant)], {}, `${n}.o`);
    const xMid = g.op('Add', [x, o], {}, `${n}.resid1`);
    const h2 = rmsnorm(
      g,
      xMid,
      g.init(L.postNorm.name, DT.FLOAT, L.postNorm.shape, P(L.postNorm)),
      c.rmsEps,
      `${n}.norm2`,
    );
    const gate = linearWeight(g, params, L.gate, opts.quant);
    const up = linearWeight(g, params, L.up, opts.quant);
    const down = linearWeight(g, params, L.down, opts.quant);
    x = g.op('Add', [xMid, swiglu(g, h2, gate, up, down, `${n}.mlp`)], {}, `${n}.resid2`);
  });
  const hf = rmsnorm(
    g,
    x,
    g.init(layout.finalNorm.name, DT.FLOAT, layout.finalNorm.shape, P(layout.finalNorm)),
    c.rmsEps,
    'final_norm',
  );
  // Tied embeddings: one stored table, transposed in-graph (constant-folded at session load) instead of a second copy.
  const head = c.tiedEmbeddings
    ? g.op('Transpose', [embed], { perm: [1, 0] }, 'lm_head.weight_t')
    : linearWeight(g, params, layout.lmHead, opts.quant);
  const logits = g.op('MatMul', [hf, head], {}, onnxNames.logits);
  g.output(logits, DT.FLOAT, ['batch', 'sequence', c.vocabSize]);
  for (const p of presents) g.output(p, DT.FLOAT, ['batch', c.kvHeads, 'total_sequence', c.headDim]);
  return g.encode({
    name: opts.name ?? 'code_a1_lab',
    opset: ONNX_OPSET,
    irVersion: ONNX_IR_VERSION,
    doc: 'Code-A1 Lab decoder (Qwen2 shape): RMSNorm, rotate-half RoPE, GQA, SwiGLU',
    props: {
      architecture: 'Qwen2ForCausalLM',
      quant: opts.quant ?? 'fp32',
      kv_cache: String(!!opts.kvCache),
      ...opts.metadata,
    },
  });
}
