// Streams a Hugging Face checkpoint's tensors (model.safetensors or the shards of model.safetensors.index.json) one at
// a time: headers first (so every shape and dtype is checked before any weight is read), then each tensor's bytes.
import { CheckpointError, parseSafetensorsHeader, type SafeEntry, type SafeTensor } from '../checkpoint-safetensors';
import { readJson, type HfSource } from './source';

export const SINGLE_FILE = 'model.safetensors';
export const INDEX_FILE = 'model.safetensors.index.json';

/** A tensor's place: which file, and its absolute byte range there. */
export interface TensorEntry extends SafeEntry {
  file: string;
  /** Absolute offset of the first byte in the file. */
  fileOffset: number;
}

export interface CheckpointIndex {
  files: string[];
  entries: Map<string, TensorEntry>;
  /** Bytes of all tensors together. */
  totalBytes: number;
  metadata: Record<string, string>;
}

async function readHeader(
  src: HfSource,
  file: string,
): Promise<{ entries: TensorEntry[]; metadata: Record<string, string> }> {
  const label = `${src.label}/${file}`;
  const size = await src.size(file);
  if (size === undefined) throw new CheckpointError(`${label}: missing`);
  if (size < 8) throw new CheckpointError(`${label}: truncated: ${size} bytes, the 8-byte header length is missing`);
  const lenBytes = await src.read(file, 0, 8);
  const headerLen = Number(new DataView(lenBytes.buffer, lenBytes.byteOffset, 8).getBigUint64(0, true));
  if (8 + headerLen > size)
    throw new CheckpointError(
      `${label}: truncated: header says ${headerLen} bytes of JSON but the file has ${size - 8} after the length`,
    );
  // A 100 MB header would be a broken or hostile file; real ones are a few hundred kB at most.
  if (headerLen > 100_000_000) throw new CheckpointError(`${label}: header of ${headerLen} bytes is implausibly large`);
  const dataStart = 8 + headerLen;
  const { entries, metadata } = parseSafetensorsHeader(await src.read(file, 8, headerLen), size - dataStart, label);
  return { entries: entries.map((e) => ({ ...e, file, fileOffset: dataStart + e.begin })), metadata };
}

/** Reads the index (sharded) or the single file's header and checks that every tensor is where the index says. */
export async function indexCheckpoint(src: HfSource): Promise<CheckpointIndex> {
  let files: string[];
  let weightMap: Record<string, string> | undefined;
  if ((await src.size(SINGLE_FILE)) !== undefined) {
    files = [SINGLE_FILE];
  } else {
    const index = await readJson(src, INDEX_FILE);
    if (index === undefined)
      throw new CheckpointError(`${src.label}: neither ${SINGLE_FILE} nor ${INDEX_FILE} is present`);
    const map = (index as { weight_map?: unknown }).weight_map;
    if (typeof map !== 'object' || map === null || !Object.values(map).every((v) => typeof v === 'string')) {
      throw new CheckpointError(`${src.label}/${INDEX_FILE}: 'weight_map' must map tensor names to file names`);
    }
    weightMap = map as Record<string, string>;
    files = [...new Set(Object.values(weightMap))].sort();
  }
  const entries = new Map<string, TensorEntry>();
  let metadata: Record<string, string> = {};
  let totalBytes = 0;
  for (const file of files) {
    const h = await readHeader(src, file);
    metadata = { ...metadata, ...h.metadata };
    for (const e of h.entries) {
      const prev = entries.get(e.name);
      if (prev)
        throw new CheckpointError(`${src.label}: tensor '${e.name}' is in both ${prev.file} and ${file}`, e.name);
      if (weightMap && weightMap[e.name] !== file) {
        throw new CheckpointError(
          `${src.label}/${INDEX_FILE}: tensor '${e.name}' is in ${file} but the index says ${weightMap[e.name] ?? 'nothing'}`,
          e.name,
        );
      }
      entries.set(e.name, e);
      totalBytes += e.end - e.begin;
    }
  }
  if (weightMap) {
    const missing = Object.keys(weightMap).filter((n) => !entries.has(n));
    if (missing.length)
      throw new CheckpointError(
        `${src.label}/${INDEX_FILE}: listed tensor '${missing[0]}' is not in ${weightMap[missing[0]]}`,
        missing[0],
      );
  }
  return { files, entries, totalBytes, metadata };
}

/** Reads one tensor's bytes (nothing else of its file). */
export async function readTensor(src: HfSource, e: TensorEntry): Promise<SafeTensor> {
  const data = await src.read(e.file, e.fileOffset, e.end - e.begin);
  return { name: e.name, dtype: e.dtype, shape: e.shape, data };
}
