// Run bundle codec: one file holding a run's config, metrics, Mistake Book, recent rollouts and its snapshot (with
// binary checkpoints). Layout: magic line, u32 LE header length, JSON header, then the binary blobs back to back.
import { checkSteps, parseMetricsJsonl, type StepMetrics } from '../../rl/metrics';
import type { TrainerState } from '../../rl/trainer-types';
import { parseEvalPoints, RUN_FILES } from '../../run/run-layout';
import type { MistakeEntry, RolloutRecord } from '../../rl/records';
import { isMode, isPreset, type RunConfigUi } from '../config/run-config';

export const BUNDLE_MAGIC = 'CODE-A1-LAB-BUNDLE\n';
export const BUNDLE_VERSION = 1;
export const BUNDLE_EXT = '.codea1';

export interface RunBundle {
  name: string;
  createdAt: number;
  config: RunConfigUi;
  metrics: StepMetrics[];
  mistakeBook: MistakeEntry[];
  rollouts: RolloutRecord[];
  /** The trainer's RunSnapshot (opaque here): plain objects, arrays, numbers, strings and typed arrays. */
  snapshot?: unknown;
}

export class BundleError extends Error {
  constructor(message: string) {
    super(`Not a valid Code-A1 Lab run bundle: ${message}`);
    this.name = 'BundleError';
  }
}

type TypedCtor = { new (b: ArrayBuffer, off: number, len: number): ArrayBufferView; BYTES_PER_ELEMENT: number };
const TYPED: Record<string, TypedCtor> = {
  Uint8Array,
  Int8Array,
  Uint16Array,
  Int16Array,
  Uint32Array,
  Int32Array,
  Float32Array,
  Float64Array,
};

interface BlobRef {
  $blob: number;
  $type: string;
}

function isBlobRef(v: unknown): v is BlobRef {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as BlobRef).$blob === 'number' &&
    typeof (v as BlobRef).$type === 'string'
  );
}

function lift(value: unknown, blobs: Uint8Array[], path: string): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : { $num: String(value) };
  if (value === undefined) return undefined;
  if (ArrayBuffer.isView(value)) {
    const type = value.constructor.name;
    if (!(type in TYPED)) throw new Error(`bundle: cannot store ${type} at ${path}`);
    blobs.push(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    return { $blob: blobs.length - 1, $type: type } satisfies BlobRef;
  }
  if (value instanceof ArrayBuffer) {
    blobs.push(new Uint8Array(value));
    return { $blob: blobs.length - 1, $type: 'ArrayBuffer' } satisfies BlobRef;
  }
  if (Array.isArray(value)) return value.map((v, i) => lift(v, blobs, `${path}[${i}]`));
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = lift(v, blobs, `${path}.${k}`);
    return out;
  }
  throw new Error(`bundle: cannot store a ${typeof value} (${Object.prototype.toString.call(value)}) at ${path}`);
}

function lower(value: unknown, blobs: ArrayBuffer[]): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => lower(v, blobs));
  if (isBlobRef(value)) {
    const buf = blobs[value.$blob];
    if (!buf) throw new BundleError(`blob #${value.$blob} is missing`);
    if (value.$type === 'ArrayBuffer') return buf;
    const C = TYPED[value.$type];
    if (!C) throw new BundleError(`unknown array type ${value.$type}`);
    if (buf.byteLength % C.BYTES_PER_ELEMENT)
      throw new BundleError(`blob #${value.$blob} has a length that does not fit ${value.$type}`);
    return new C(buf, 0, buf.byteLength / C.BYTES_PER_ELEMENT);
  }
  const num = (value as { $num?: unknown }).$num;
  if (typeof num === 'string' && Object.keys(value).length === 1) return Number(num);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = lower(v, blobs);
  return out;
}

export function encodeBundle(bundle: RunBundle): Uint8Array {
  const blobs: Uint8Array[] = [];
  const run = lift(bundle, blobs, 'bundle');
  const table: { offset: number; length: number }[] = [];
  let offset = 0;
  for (const b of blobs) {
    table.push({ offset, length: b.byteLength });
    offset += b.byteLength;
  }
  const header = new TextEncoder().encode(
    JSON.stringify({ format: 'code-a1-lab-run-bundle', version: BUNDLE_VERSION, blobs: table, run }),
  );
  const magic = new TextEncoder().encode(BUNDLE_MAGIC);
  const out = new Uint8Array(magic.length + 4 + header.length + offset);
  out.set(magic, 0);
  new DataView(out.buffer).setUint32(magic.length, header.length, true);
  out.set(header, magic.length + 4);
  let p = magic.length + 4 + header.length;
  for (const b of blobs) {
    out.set(b, p);
    p += b.byteLength;
  }
  return out;
}

/** Decodes and checks a bundle; throws BundleError with a message fit for the user. Never partially applies anything. */
export function decodeBundle(bytes: Uint8Array): RunBundle {
  const magic = new TextEncoder().encode(BUNDLE_MAGIC);
  if (bytes.length < magic.length + 4) throw new BundleError(`the file is only ${bytes.length} bytes long`);
  for (let i = 0; i < magic.length; i++) {
    if (bytes[i] !== magic[i])
      throw new BundleError(
        `it does not start with the bundle signature (expected a ${BUNDLE_EXT} file exported by the lab)`,
      );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLen = view.getUint32(magic.length, true);
  const headerStart = magic.length + 4;
  if (headerStart + headerLen > bytes.length)
    throw new BundleError(
      `the file is truncated (header needs ${headerLen} bytes, ${bytes.length - headerStart} remain)`,
    );
  let header: { format?: unknown; version?: unknown; blobs?: unknown; run?: unknown };
  try {
    header = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(headerStart, headerStart + headerLen)),
    );
  } catch (e) {
    throw new BundleError(`its header is not valid JSON (${(e as Error).message})`);
  }
  if (header.format !== 'code-a1-lab-run-bundle') throw new BundleError('its header has the wrong format tag');
  if (header.version !== BUNDLE_VERSION)
    throw new BundleError(
      `version ${String(header.version)} is not supported (this lab reads version ${BUNDLE_VERSION})`,
    );
  if (!Array.isArray(header.blobs)) throw new BundleError('its blob table is missing');
  const dataStart = headerStart + headerLen;
  const blobs = header.blobs.map((b: { offset?: unknown; length?: unknown }, i: number) => {
    const { offset, length } = b ?? {};
    if (
      typeof offset !== 'number' ||
      typeof length !== 'number' ||
      offset < 0 ||
      length < 0 ||
      dataStart + offset + length > bytes.length
    ) {
      throw new BundleError(`blob #${i} lies outside the file (the file is truncated or corrupt)`);
    }
    return bytes.slice(dataStart + offset, dataStart + offset + length).buffer;
  });
  const run = lower(header.run, blobs);
  checkRun(run);
  checkSnapshot(run);
  return run;
}

/**
 * The run files a bundle carries (what an import writes to IndexedDB and resumes from): metrics.jsonl, eval.jsonl and
 * the Mistake Book history of latest/state.json have no step twice or missing.
 */
function checkSnapshot(run: RunBundle): void {
  const files = (run.snapshot as { files?: Record<string, unknown> } | undefined)?.files;
  if (!files || typeof files !== 'object') return;
  const text = (name: string) => {
    const f = files[name];
    return f instanceof Uint8Array ? new TextDecoder().decode(f) : undefined;
  };
  try {
    const metrics = text(RUN_FILES.metrics);
    if (metrics !== undefined) parseMetricsJsonl(metrics, RUN_FILES.metrics);
    const evals = text(RUN_FILES.evals);
    if (evals !== undefined) parseEvalPoints(evals, RUN_FILES.evals);
    const state = text(RUN_FILES.latest + RUN_FILES.state);
    const history = state === undefined ? undefined : (JSON.parse(state) as Partial<TrainerState>).book?.history;
    if (Array.isArray(history))
      checkSteps(
        history.map((h) => h.step),
        (i) => `${RUN_FILES.latest + RUN_FILES.state}: Mistake Book history[${i}]`,
        true,
      );
  } catch (e) {
    throw new BundleError((e as Error).message);
  }
}

function checkRun(run: unknown): asserts run is RunBundle {
  if (typeof run !== 'object' || run === null) throw new BundleError('it holds no run');
  const r = run as Partial<RunBundle>;
  if (typeof r.name !== 'string') throw new BundleError('the run has no name');
  const c = r.config;
  if (!c || typeof c !== 'object') throw new BundleError('the run has no config');
  if (!isPreset(String(c.preset))) throw new BundleError(`config.preset '${String(c.preset)}' is unknown`);
  if (!isMode(String(c.mode))) throw new BundleError(`config.mode '${String(c.mode)}' is unknown`);
  if (!Number.isSafeInteger(c.seed)) throw new BundleError('config.seed is not an integer');
  if (typeof c.overrides !== 'object' || c.overrides === null) throw new BundleError('config.overrides is missing');
  if (!Array.isArray(r.metrics)) throw new BundleError('metrics are missing');
  r.metrics.forEach((m, i) => {
    if (typeof m !== 'object' || m === null || !Number.isInteger(m.step) || !isMode(String(m.mode)))
      throw new BundleError(`metrics[${i}] is not a step record`);
  });
  try {
    checkSteps(
      r.metrics.map((m) => m.step),
      (i) => `metrics[${i}]`,
      true,
    );
  } catch (e) {
    throw new BundleError((e as Error).message);
  }
  if (!Array.isArray(r.mistakeBook)) throw new BundleError('the Mistake Book is missing');
  r.mistakeBook.forEach((e, i) => {
    if (typeof e?.problemId !== 'string' || typeof e.test !== 'string' || typeof e.frequency !== 'number')
      throw new BundleError(`mistakeBook[${i}] is not an entry`);
  });
  if (!Array.isArray(r.rollouts)) throw new BundleError('rollouts are missing');
  r.rollouts.forEach((ro, i) => {
    if (typeof ro?.problemId !== 'string' || !Array.isArray(ro.candidates))
      throw new BundleError(`rollouts[${i}] is not a rollout record`);
  });
}
