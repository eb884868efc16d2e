// Launcher and CPU reference for token sampling (temperature, top-k, top-p, Gumbel-max with a counter-based RNG).
import source from '../../../shaders/sample.wgsl?raw';
import advanceSource from '../../../shaders/sample_advance.wgsl?raw';
import { ceilDiv, Kernel } from '../launcher';
import type { Gpu } from '../runtime';

/**
 * Sampling policy. The returned log-prob is the one of the *processed* distribution (TRL / vLLM
 * "processed_logprobs"): softmax(logits / temperature) restricted to the top-k, then top-p set, renormalised.
 * temperature = 0 is greedy; its log-prob is then the one of the plain softmax(logits), untruncated.
 */
export interface SampleParams {
  temperature: number;
  /** 0 (default) or >= V: off. Ties with the k-th value are kept, as in HF's TopKLogitsWarper. */
  topK?: number;
  /** 1 (default): off. Keeps every token whose strictly-more-likely mass is < p (HF's TopPLogitsWarper). */
  topP?: number;
  seed: number;
}

export const NO_TOKEN = 0xffffffff;

/** Splits slots [from, to) of a read-back `out` buffer ([cap, 2, B] u32) into per-slot token ids and log-probs. */
export function unpackSampleOut(
  words: Uint32Array,
  B: number,
  slots: number,
): { tokens: Uint32Array[]; logprobs: Float32Array[] } {
  const tokens: Uint32Array[] = [];
  const logprobs: Float32Array[] = [];
  const f = new Float32Array(words.buffer, words.byteOffset, words.length);
  for (let c = 0; c < slots; c++) {
    tokens.push(words.slice(c * 2 * B, c * 2 * B + B));
    logprobs.push(f.slice(c * 2 * B + B, c * 2 * B + 2 * B));
  }
  return { tokens, logprobs };
}

const kernel = new Kernel({
  family: 'sample',
  source,
  uniforms: [
    ['B', 'u32'],
    ['V', 'u32'],
    ['invT', 'f32'],
    ['topK', 'u32'],
    ['topP', 'f32'],
    ['seed', 'u32'],
    ['step', 'u32'],
    ['col', 'u32'],
    ['_cap', 'u32'],
    ['stop0', 'u32'],
    ['stop1', 'u32'],
    ['padId', 'u32'],
  ],
});

export interface SampleBuffers {
  /** [B, V] f32 */
  logits: GPUBuffer;
  /** [B] u32: the RNG stream of each row (a sequence id, independent of its batch position) */
  seqIds: GPUBuffer;
  /** [B] u32: non-zero rows are finished; they emit padId. A sampled stop id sets it. */
  done: GPUBuffer;
  /** [cap, 2, B] u32: slot `col` gets the B token ids, then the B log-probs as f32 bit patterns (one readback). */
  out: GPUBuffer;
  /** [B] u32: the sampled token, the next decode step's input */
  next: GPUBuffer;
}

export interface SampleShape {
  B: number;
  V: number;
  /** Step slots in `out`. */
  cap: number;
  col: number;
  /** Generation step (counter of the RNG); same for every row of the call. */
  step: number;
}

/** Threads per row: few for small vocabularies (reductions are O(WG²) shared reads), more for large ones. */
export function sampleWorkgroup(V: number): number {
  return V <= 4096 ? 16 : 64;
}

/** f32 reciprocal of the temperature as the shader sees it (0 = greedy). */
export function invTemperature(temperature: number): number {
  return temperature > 0 ? Math.fround(1 / temperature) : 0;
}

export function sampleTokens(
  gpu: Gpu,
  b: SampleBuffers,
  shape: SampleShape,
  p: SampleParams,
  stopIds: readonly number[] = [],
  padId = 0,
): void {
  if (stopIds.length > 2) throw new Error('sample: at most two stop ids');
  if (shape.col >= shape.cap) throw new Error(`sample: slot ${shape.col} outside cap ${shape.cap}`);
  if (b.out.size < shape.cap * 2 * shape.B * 4)
    throw new Error(`sample: out '${b.out.label}' smaller than [${shape.cap}, 2, ${shape.B}]`);
  if (b.logits.size < shape.B * shape.V * 4)
    throw new Error(`sample: logits '${b.logits.label}' smaller than [${shape.B}, ${shape.V}]`);
  kernel.dispatch(gpu, {
    buffers: [b.logits, b.seqIds, b.done, b.out, b.next],
    uniforms: {
      B: shape.B,
      V: shape.V,
      invT: invTemperature(p.temperature),
      topK: p.topK ?? 0,
      topP: p.topP ?? 1,
      seed: p.seed >>> 0,
      step: shape.step,
      col: shape.col,
      _cap: shape.cap,
      stop0: stopIds[0] ?? NO_TOKEN,
      stop1: stopIds[1] ?? NO_TOKEN,
      padId,
    },
    workgroups: [shape.B],
    overrides: { WG: sampleWorkgroup(shape.V) },
  });
}

const advanceKernel = new Kernel({
  family: 'sample',
  source: advanceSource,
  uniforms: [
    ['B', 'u32'],
    ['_p0', 'u32'],
    ['_p1', 'u32'],
    ['_p2', 'u32'],
  ],
});

/** positions[b]++, slots[b]++, lens[b]++ for b < B: the decode counters after one generated token. */
export function advanceCounters(gpu: Gpu, positions: GPUBuffer, slots: GPUBuffer, lens: GPUBuffer, B: number): void {
  advanceKernel.dispatch(gpu, {
    buffers: [positions, slots, lens],
    uniforms: { B, _p0: 0, _p1: 0, _p2: 0 },
    workgroups: [ceilDiv(B, 64)],
    overrides: { WG: 64 },
  });
}

// ---- CPU reference ---------------------------------------------------------------------------------------

export function mix32(x0: number): number {
  let x = x0 >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return x >>> 0;
}

/** The uniform in (0, 1) that the shader draws for token i of (seed, seqId, step). */
export function uniformDraw(seed: number, seqId: number, step: number, i: number): number {
  const rowKey = mix32(step ^ mix32(seqId ^ mix32(seed)));
  const seedKey = mix32((seed + 0x9e3779b9) >>> 0);
  const h = mix32(mix32(i ^ rowKey) ^ seedKey);
  return ((h >>> 8) + 0.5) / 16777216;
}

/** The processed distribution of one row: kept token ids (by decreasing probability) and their probabilities. */
export interface Processed {
  /** scaled logits s_i = fround(l_i * invT), as the shader computes them */
  scaled: Float64Array;
  kept: number[];
  probs: Map<number, number>;
  /** log of the renormalising sum over the kept set, relative to max s */
  logZ: number;
  max: number;
}

/** Sort-based (independent of the shader's threshold search) temperature / top-k / top-p processing in f64. */
export function processRow(row: Float32Array, p: SampleParams): Processed {
  const V = row.length;
  const greedy = !(p.temperature > 0);
  const invT = greedy ? 1 : invTemperature(p.temperature);
  const scaled = new Float64Array(V);
  for (let i = 0; i < V; i++) scaled[i] = Math.fround(row[i] * invT);
  const order = Array.from({ length: V }, (_, i) => i).sort((a, b) => scaled[b] - scaled[a] || a - b);
  const max = scaled[order[0]];
  let kept = order;
  const k = p.topK ?? 0;
  if (!greedy && k > 0 && k < V) {
    const kth = scaled[order[k - 1]];
    kept = order.filter((i) => scaled[i] >= kth);
  }
  const topP = p.topP ?? 1;
  if (!greedy && topP < 1) {
    let z = 0;
    for (const i of kept) z += Math.exp(scaled[i] - max);
    // Keep token i when the mass of strictly larger tokens is < p; equal values are kept or dropped together.
    const out: number[] = [];
    let greater = 0;
    let j = 0;
    while (j < kept.length) {
      const v = scaled[kept[j]];
      if (greater / z >= topP) break;
      let tie = 0;
      while (j < kept.length && scaled[kept[j]] === v) {
        out.push(kept[j]);
        tie += Math.exp(v - max);
        j++;
      }
      greater += tie;
    }
    kept = out;
  }
  let z = 0;
  for (const i of kept) z += Math.exp(scaled[i] - max);
  const probs = new Map<number, number>();
  for (const i of kept) probs.set(i, Math.exp(scaled[i] - max) / z);
  return { scaled, kept, probs, logZ: Math.log(z), max };
}

export interface SampleRefResult {
  tokens: Uint32Array;
  logprobs: Float64Array;
  /** per row: the gap between the best and second-best Gumbel score (tiny gaps may flip in f32) */
  gaps: Float64Array;
  processed: Processed[];
}

/** CPU reference of one sampling call on rows that are not done. */
export function sampleRef(
  logits: Float32Array,
  B: number,
  V: number,
  p: SampleParams,
  seqIds: ArrayLike<number>,
  step: number,
): SampleRefResult {
  const tokens = new Uint32Array(B);
  const logprobs = new Float64Array(B);
  const gaps = new Float64Array(B);
  const processed: Processed[] = [];
  const greedy = !(p.temperature > 0);
  for (let r = 0; r < B; r++) {
    const pr = processRow(logits.subarray(r * V, (r + 1) * V), p);
    processed.push(pr);
    let best = -Infinity;
    let second = -Infinity;
    let bestI = -1;
    for (const i of pr.kept) {
      const g = greedy ? 0 : -Math.log(-Math.log(uniformDraw(p.seed >>> 0, seqIds[r], step, i)));
      const score = pr.scaled[i] + g;
      if (score > best || (score === best && i < bestI)) {
        second = best;
        best = score;
        bestI = i;
      } else if (score > second) second = score;
    }
    tokens[r] = bestI;
    logprobs[r] = pr.scaled[bestI] - pr.max - pr.logZ;
    gaps[r] = best - second;
  }
  return { tokens, logprobs, gaps, processed };
}
