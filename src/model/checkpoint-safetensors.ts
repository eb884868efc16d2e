// safetensors reader/writer (8-byte LE header length, JSON header, raw little-endian data), bytes in and out, no fs.
import { halfToFloat } from '../gpu/f16';

/** Element sizes of every dtype the format defines; anything else is rejected by name. */
export const DTYPE_BYTES = {
  F64: 8,
  F32: 4,
  F16: 2,
  BF16: 2,
  I64: 8,
  I32: 4,
  I16: 2,
  I8: 1,
  U64: 8,
  U32: 4,
  U16: 2,
  U8: 1,
  BOOL: 1,
} as const;

export type Dtype = keyof typeof DTYPE_BYTES;

export interface SafeTensor {
  name: string;
  dtype: Dtype;
  shape: number[];
  /** Raw little-endian bytes (a view into the file when decoding). */
  data: Uint8Array;
}

export interface SafeFile {
  tensors: Map<string, SafeTensor>;
  metadata: Record<string, string>;
}

/** Errors carry the tensor name so a broken checkpoint says which entry is at fault. */
export class CheckpointError extends Error {
  constructor(
    message: string,
    readonly tensor?: string,
  ) {
    super(message);
    this.name = 'CheckpointError';
  }
}

function isDtype(s: unknown): s is Dtype {
  return typeof s === 'string' && Object.prototype.hasOwnProperty.call(DTYPE_BYTES, s);
}

export function elementCount(shape: number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

function toBytes(input: ArrayBuffer | ArrayBufferView): Uint8Array {
  return input instanceof Uint8Array
    ? input
    : ArrayBuffer.isView(input)
      ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
      : new Uint8Array(input);
}

/** One entry of a safetensors header: where its bytes lie, relative to the start of the data section. */
export interface SafeEntry {
  name: string;
  dtype: Dtype;
  shape: number[];
  begin: number;
  end: number;
}

/**
 * Validates a safetensors JSON header against the data section's length (when known): dtypes, shapes, offsets
 * that match the shape, and nothing past the end. Used by the in-memory decoder and by the streaming importer.
 */
export function parseSafetensorsHeader(
  headerJson: Uint8Array,
  dataLen: number,
  fileLabel: string,
): { entries: SafeEntry[]; metadata: Record<string, string> } {
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(new TextDecoder().decode(headerJson)) as Record<string, unknown>;
  } catch (e) {
    throw new CheckpointError(`${fileLabel}: header is not valid JSON (${(e as Error).message})`);
  }
  const entries: SafeEntry[] = [];
  let metadata: Record<string, string> = {};
  for (const [name, raw] of Object.entries(header)) {
    if (name === '__metadata__') {
      metadata = (raw ?? {}) as Record<string, string>;
      continue;
    }
    const entry = raw as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (!isDtype(entry.dtype))
      throw new CheckpointError(`${fileLabel}: tensor '${name}' has unknown dtype '${String(entry.dtype)}'`, name);
    const shape = entry.shape;
    if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0)) {
      throw new CheckpointError(`${fileLabel}: tensor '${name}' has a malformed shape ${JSON.stringify(shape)}`, name);
    }
    const offs = entry.data_offsets;
    if (
      !Array.isArray(offs) ||
      offs.length !== 2 ||
      !offs.every((o) => Number.isInteger(o) && o >= 0) ||
      offs[1] < offs[0]
    ) {
      throw new CheckpointError(
        `${fileLabel}: tensor '${name}' has malformed data_offsets ${JSON.stringify(offs)}`,
        name,
      );
    }
    const [begin, end] = offs as [number, number];
    const want = elementCount(shape as number[]) * DTYPE_BYTES[entry.dtype];
    if (end - begin !== want) {
      throw new CheckpointError(
        `${fileLabel}: tensor '${name}' (${entry.dtype} [${(shape as number[]).join(', ')}]) needs ${want} bytes but data_offsets span ${end - begin}`,
        name,
      );
    }
    if (end > dataLen) {
      throw new CheckpointError(
        `${fileLabel}: truncated: tensor '${name}' needs bytes ${begin}..${end} of the data section but only ${dataLen} are present`,
        name,
      );
    }
    entries.push({ name, dtype: entry.dtype, shape: shape as number[], begin, end });
  }
  return { entries, metadata };
}

/** Parses a safetensors file, validating every entry against the bytes present. */
export function decodeSafetensors(input: ArrayBuffer | ArrayBufferView, fileLabel = 'model.safetensors'): SafeFile {
  const bytes = toBytes(input);
  if (bytes.byteLength < 8)
    throw new CheckpointError(
      `${fileLabel}: truncated: ${bytes.byteLength} bytes, the 8-byte header length is missing`,
    );
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLen = Number(dv.getBigUint64(0, true));
  if (8 + headerLen > bytes.byteLength) {
    throw new CheckpointError(
      `${fileLabel}: truncated: header says ${headerLen} bytes of JSON but the file has ${bytes.byteLength - 8} after the length`,
    );
  }
  const dataStart = 8 + headerLen;
  const { entries, metadata } = parseSafetensorsHeader(
    bytes.subarray(8, dataStart),
    bytes.byteLength - dataStart,
    fileLabel,
  );
  const tensors = new Map<string, SafeTensor>();
  for (const e of entries) {
    tensors.set(e.name, {
      name: e.name,
      dtype: e.dtype,
      shape: e.shape,
      data: bytes.subarray(dataStart + e.begin, dataStart + e.end),
    });
  }
  return { tensors, metadata };
}

/** Writes tensors in the given order; the JSON header is space-padded so the data section starts 8-byte aligned. */
export function encodeSafetensors(tensors: SafeTensor[], metadata: Record<string, string> = {}): Uint8Array {
  const header: Record<string, unknown> = {};
  if (Object.keys(metadata).length) header.__metadata__ = metadata;
  let offset = 0;
  for (const t of tensors) {
    const want = elementCount(t.shape) * DTYPE_BYTES[t.dtype];
    if (t.data.byteLength !== want)
      throw new CheckpointError(
        `encode: tensor '${t.name}' has ${t.data.byteLength} bytes, shape needs ${want}`,
        t.name,
      );
    header[t.name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + want] };
    offset += want;
  }
  let json = new TextEncoder().encode(JSON.stringify(header));
  const padded = Math.ceil(json.byteLength / 8) * 8;
  if (padded !== json.byteLength) {
    const p = new Uint8Array(padded).fill(0x20);
    p.set(json);
    json = p;
  }
  const out = new Uint8Array(8 + json.byteLength + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.byteLength), true);
  out.set(json, 8);
  let at = 8 + json.byteLength;
  for (const t of tensors) {
    out.set(t.data, at);
    at += t.data.byteLength;
  }
  return out;
}

/** Little-endian bytes of a typed array (every platform we run on is little-endian, as WebGPU requires). */
export function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** A tensor's values as f32, converting F64/F16/BF16 (real HF checkpoints ship bf16). */
export function toFloat32(t: SafeTensor): Float32Array {
  const n = elementCount(t.shape);
  const dv = new DataView(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  const out = new Float32Array(n);
  switch (t.dtype) {
    case 'F32':
      for (let i = 0; i < n; i++) out[i] = dv.getFloat32(i * 4, true);
      return out;
    case 'F64':
      for (let i = 0; i < n; i++) out[i] = dv.getFloat64(i * 8, true);
      return out;
    case 'BF16': {
      const u = new Uint32Array(out.buffer);
      for (let i = 0; i < n; i++) u[i] = dv.getUint16(i * 2, true) << 16;
      return out;
    }
    case 'F16':
      for (let i = 0; i < n; i++) out[i] = halfToFloat(dv.getUint16(i * 2, true));
      return out;
    default:
      throw new CheckpointError(`tensor '${t.name}': dtype ${t.dtype} is not a float type`, t.name);
  }
}
