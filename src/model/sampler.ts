// Batched generation with a KV cache: prefill, then decode steps with sampling on the GPU; tokens are read back once
// per chunk (8 steps by default), stop strings are checked on the CPU after each read-back.
//
// Repeated prompts (a GRPO group samples one prompt several times) are prefilled once and their caches copied to
// the repeats. Finished rows are masked by the sampler (they emit the pad id) until the CPU learns of them at a read-back; then,
// when enough rows have finished, the batch is compacted: the live rows' caches and counters move to a smaller
// state, so cost follows the tokens actually generated. A row's draws depend only on its sequence id, seed and step,
// so compaction does not change what is sampled. The next chunk is recorded before the previous one's read-back is
// awaited, so the GPU never waits for the CPU's stop-string check (at the cost of up to one chunk of masked steps).
import { sampleTokens, unpackSampleOut, type SampleParams } from '../gpu/kernels/sample';
import { DecodeState, decodeStep, prefill } from './decode';
import { forEachRun, leftPad } from './batch-rows';
import type { DecodeWeights } from './decode-weights';
import { SPECIAL_TOKENS } from './special-tokens';

/** The part of the tokenizer the sampler needs (BpeTokenizer fits). */
export interface SamplerTokenizer {
  decode(ids: ArrayLike<number>, skipSpecial?: boolean): string;
  tokenToId(token: string): number | undefined;
}

export interface GenerateOptions extends SampleParams {
  maxNewTokens: number;
  /** Stop when the completion text contains one of these; needs a tokenizer. Excluded from `text` (vLLM's default). */
  stopStrings?: string[];
  /** Token ids that end a sequence (at most two; included in `tokens`, not in `text`). Default: the tokenizer's
   * `<|end|>` and `<|endoftext|>`, or none without a tokenizer. */
  stopTokenIds?: number[];
  /** Id used for left padding and for the output of finished rows; default the tokenizer's `<|pad|>`, else 0. */
  padId?: number;
  /** RNG stream per sequence (default: its index). Equal ids, seed and prompt give equal samples in any batch. */
  seqIds?: number[];
  tokenizer?: SamplerTokenizer;
  /** Generated tokens per read-back (default 8). */
  chunk?: number;
  onProgress?: (finished: number, total: number) => void;
  /**
   * After each read-back: `text(b)` decodes row b's completion so far (stop string cut once found). Called once per
   * chunk, never per token; decoding happens only for the rows the caller asks about.
   */
  onChunk?: (text: (b: number) => string) => void;
  /** When given, filled with wall-clock timings; costs one extra GPU sync after the prefill. */
  stats?: GenerateStats;
  /** Prefill each distinct prompt once and copy its cache to the repeats (default true; false: every row). */
  dedupePrompts?: boolean;
  /**
   * Drop finished rows from the batch once at least this share of it has finished (default 0.125; 1 or more never
   * compacts: the batch shape then never changes).
   */
  compactAt?: number;
}

export interface GenerateStats {
  prefillMs: number;
  /** Decode steps (after the first sampled token) until the last read-back. */
  decodeMs: number;
  /** Generated positions per sequence that were computed (finished rows included). */
  steps: number;
  readbacks: number;
  /** Row-steps sampled (Σ over steps of the batch rows then computed) and how often the batch was compacted. */
  rowSteps?: number;
  /** Rows prefilled (distinct prompts unless dedupePrompts is false). */
  prefillRows?: number;
  compactions?: number;
}

export type FinishReason = 'stop' | 'length';

export interface SampledSequence {
  /** Completion token ids (a stop token is included; tokens after a stop string's end are dropped). */
  tokens: number[];
  /** Per-token log-probs of the sampling policy (processed distribution, see SampleParams). */
  logprobs: number[];
  /** Decoded completion (without the stop token or stop string); '' without a tokenizer. */
  text: string;
  finishReason: FinishReason;
}

interface RowState {
  tokens: number[];
  logprobs: number[];
  finished: boolean;
  reason: FinishReason;
  cut?: number;
}

function defaultStops(tok: SamplerTokenizer | undefined): number[] {
  if (!tok) return [];
  const ids = [SPECIAL_TOKENS.end, SPECIAL_TOKENS.eos].map((t) => tok.tokenToId(t));
  return ids.filter((x): x is number => x !== undefined);
}

/** Generates completions for token prompts with the given weights (fp32 learner or a quantized rollout copy). */
export async function generate(
  w: DecodeWeights,
  prompts: number[][],
  opts: GenerateOptions,
): Promise<SampledSequence[]> {
  const gpu = w.model.gpu;
  const B = prompts.length;
  if (B === 0) return [];
  const V = w.model.config.vocabSize;
  const tok = opts.tokenizer;
  const stopIds = opts.stopTokenIds ?? defaultStops(tok);
  if (stopIds.length > 2) throw new Error('generate: at most two stop token ids');
  const stopStrings = (opts.stopStrings ?? []).filter((s) => s.length > 0);
  if (stopStrings.length && !tok) throw new Error('generate: stop strings need a tokenizer');
  const padId = opts.padId ?? tok?.tokenToId(SPECIAL_TOKENS.pad) ?? 0;
  const maxNew = opts.maxNewTokens;
  if (!(maxNew >= 1)) throw new Error(`generate: maxNewTokens must be >= 1, got ${maxNew}`);
  const chunk = Math.max(1, opts.chunk ?? 8);
  const seqIds = Uint32Array.from(opts.seqIds ?? prompts.map((_, i) => i));
  if (seqIds.length !== B) throw new Error(`generate: ${seqIds.length} seqIds for ${B} prompts`);

  // Robustness checks are off in Dawn (device-node.ts), so an id past the embedding table must be caught here.
  if (!(padId >= 0 && padId < V)) throw new Error(`generate: pad id ${padId} outside the vocabulary (${V})`);
  prompts.forEach((p, b) => {
    const bad = p.find((t) => !(Number.isInteger(t) && t >= 0 && t < V));
    if (bad !== undefined) throw new Error(`generate: prompt ${b} has token ${bad} outside the vocabulary (${V})`);
  });
  const P = leftPad(prompts, padId).P;
  // Repeated prompts (GRPO samples each prompt several times) are prefilled once and fanned out.
  const unique = new Map<string, number>();
  const firstOf: number[] = [];
  const source = prompts.map((p) => {
    const key = p.join(',');
    let i = unique.get(key);
    if (i === undefined || opts.dedupePrompts === false) unique.set(key, (i = firstOf.push(firstOf.length) - 1));
    return i;
  });
  const uniquePrompts = firstOf.map((i) => prompts[source.indexOf(i)]);
  // Pipelines a warm-up is compiling ahead of time are awaited here, not compiled again on this thread; only the
  // sampling stage's (the update's may still be compiling: a first rollout need not wait for them).
  await gpu.ready('generate');
  let st = new DecodeState(w, uniquePrompts.length, P + maxNew);
  let seqBuf = gpu.buffer('gen.seqIds', seqIds);
  let done = gpu.buffer('gen.done', B * 4);
  const out = gpu.buffer('gen.out', maxNew * 2 * B * 4);
  const rows: RowState[] = prompts.map(() => ({ tokens: [], logprobs: [], finished: false, reason: 'length' }));
  // The batch rows now on the GPU (indices into prompts) and each prompt's row (-1 once compacted away).
  let live = Array.from({ length: B }, (_, b) => b);
  const rowOf = Int32Array.from(live);
  const compactAt = opts.compactAt ?? 0.125;
  let finished = 0;
  let rowSteps = 0;
  let compactions = 0;

  const absorb = (words: Uint32Array, c0: number, c1: number, batchRows: number[]): void => {
    const { tokens, logprobs } = unpackSampleOut(words, batchRows.length, c1 - c0);
    batchRows.forEach((b, j) => {
      const r = rows[b];
      if (r.finished) return;
      const start = r.tokens.length;
      for (let s = 0; s < c1 - c0 && !r.finished; s++) {
        const t = tokens[s][j];
        r.tokens.push(t);
        r.logprobs.push(logprobs[s][j]);
        if (stopIds.includes(t)) {
          r.finished = true;
          r.reason = 'stop';
        }
      }
      if (!r.finished && stopStrings.length && tok) {
        const hit = findStop(tok, r.tokens, start, stopStrings);
        if (hit) {
          r.tokens.length = hit.keep;
          r.logprobs.length = hit.keep;
          r.cut = hit.cut;
          r.finished = true;
          r.reason = 'stop';
          // Mask the row on the GPU too (one word; the GPU may be writing other rows' flags concurrently).
          if (rowOf[b] >= 0) gpu.write(done, Uint32Array.of(1), rowOf[b] * 4);
        }
      }
      if (r.finished) finished++;
    });
    opts.onProgress?.(finished, B);
    if (opts.onChunk && tok) {
      opts.onChunk((b) => {
        const r = rows[b];
        if (!r) return '';
        // As the final text is made (below): a stop token is not shown, a stop string cuts the text.
        const body = r.finished && r.reason === 'stop' && r.cut === undefined ? r.tokens.slice(0, -1) : r.tokens;
        const text = tok.decode(body);
        return r.cut !== undefined ? text.slice(0, r.cut) : text;
      });
    }
  };

  /** Moves the rows not yet known to be finished into a smaller batch (recorded after everything so far). */
  const compact = (): void => {
    const keep: number[] = [];
    live.forEach((b, i) => !rows[b].finished && keep.push(i));
    const next = st.gather(keep);
    const nextSeq = gpu.buffer(
      'gen.seqIds',
      Uint32Array.from(keep, (i) => seqIds[live[i]]),
    );
    const nextDone = gpu.buffer('gen.done', keep.length * 4);
    // Rows that finished in the chunk still in flight carry their GPU-side flag over.
    forEachRun(keep, (from, to, n) => gpu.copy(done, from * 4, nextDone, to * 4, n * 4));
    gpu.submit();
    const old = [seqBuf, done];
    void gpu.device.queue.onSubmittedWorkDone().then(() => old.forEach((b) => b.destroy()));
    rowOf.fill(-1);
    live = keep.map((i) => live[i]);
    live.forEach((b, i) => (rowOf[b] = i));
    st = next;
    seqBuf = nextSeq;
    done = nextDone;
    compactions++;
  };

  try {
    const t0 = performance.now();
    prefill(st, uniquePrompts, padId);
    if (uniquePrompts.length < B) st = st.gather(source);
    if (opts.stats) {
      await gpu.sync();
      opts.stats.prefillMs = performance.now() - t0;
      opts.stats.steps = 0;
      opts.stats.readbacks = 0;
    }
    const t1 = performance.now();
    let pending: { read: Promise<ArrayBuffer>; c0: number; c1: number; rows: number[] } | undefined;
    for (let c0 = 0; c0 < maxNew; c0 += chunk) {
      const c1 = Math.min(maxNew, c0 + chunk);
      const n = live.length;
      for (let s = c0; s < c1; s++) {
        if (s > 0) decodeStep(st);
        sampleTokens(
          gpu,
          { logits: st.logits, seqIds: seqBuf, done, out, next: st.next },
          { B: n, V, cap: maxNew, col: s, step: s },
          opts,
          stopIds,
          padId,
        );
      }
      rowSteps += n * (c1 - c0);
      const read = gpu.readBytes(out, (c1 - c0) * 2 * n * 4, c0 * 2 * n * 4);
      if (opts.stats) {
        opts.stats.steps = c1;
        opts.stats.readbacks++;
      }
      if (pending) {
        absorb(new Uint32Array(await pending.read), pending.c0, pending.c1, pending.rows);
        if (finished === B) {
          await read;
          pending = undefined;
          break;
        }
      }
      pending = { read, c0, c1, rows: live };
      const known = live.filter((b) => rows[b].finished).length;
      if (compactAt < 1 && c1 < maxNew && known > 0 && known < live.length && known >= compactAt * live.length)
        compact();
    }
    if (pending) absorb(new Uint32Array(await pending.read), pending.c0, pending.c1, pending.rows);
    if (opts.stats) {
      opts.stats.decodeMs = performance.now() - t1;
      opts.stats.rowSteps = rowSteps;
      opts.stats.compactions = compactions;
      opts.stats.prefillRows = uniquePrompts.length;
    }
  } finally {
    st.destroy();
    for (const b of [seqBuf, done, out]) b.destroy();
  }

  return rows.map((r) => {
    let text = '';
    if (tok) {
      const body = r.reason === 'stop' && r.cut === undefined ? r.tokens.slice(0, -1) : r.tokens;
      text = tok.decode(body);
      if (r.cut !== undefined) text = text.slice(0, r.cut);
    }
    return { tokens: r.tokens, logprobs: r.logprobs, text, finishReason: r.reason };
  });
}

/**
 * The first stop string in the decoded completion that ends within tokens[from..]: how many tokens to keep (up to
 * and including the one that completes it) and where the text is cut (at the stop string's start).
 */
export function findStop(
  tok: SamplerTokenizer,
  tokens: number[],
  from: number,
  stops: string[],
): { keep: number; cut: number } | undefined {
  const text = tok.decode(tokens);
  let cut = -1;
  for (const s of stops) {
    const i = text.indexOf(s);
    if (i >= 0 && (cut < 0 || i < cut)) cut = i;
  }
  if (cut < 0) return undefined;
  // The shortest prefix whose text already holds a stop string (earlier chunks had none, so it ends at >= from).
  for (let k = Math.max(1, from); k <= tokens.length; k++) {
    const t = tok.decode(tokens.slice(0, k));
    if (stops.some((s) => t.includes(s))) return { keep: k, cut };
  }
  return { keep: tokens.length, cut };
}
