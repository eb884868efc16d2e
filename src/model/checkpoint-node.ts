// Node adapter: write checkpoint files to a directory and read a directory (single file or HF shards) back.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CONFIG_FILE,
  loadCheckpoint,
  TOKENIZER_FILE,
  WEIGHTS_FILE,
  type CheckpointFiles,
  type LoadedCheckpoint,
  type LoadInput,
} from './checkpoint';
import { CheckpointError } from './checkpoint-safetensors';

export async function writeCheckpointDir(dir: string, files: CheckpointFiles): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, WEIGHTS_FILE), files[WEIGHTS_FILE]);
  await writeFile(join(dir, CONFIG_FILE), files[CONFIG_FILE]);
  if (files[TOKENIZER_FILE] !== undefined) await writeFile(join(dir, TOKENIZER_FILE), files[TOKENIZER_FILE]);
}

/** Reads model.safetensors, or every model-*.safetensors shard, plus config.json and tokenizer.json if present. */
export async function readCheckpointDir(dir: string): Promise<LoadInput> {
  const names = await readdir(dir);
  const weights = names.includes(WEIGHTS_FILE)
    ? [WEIGHTS_FILE]
    : names.filter((n) => /^model-.*\.safetensors$/.test(n)).sort();
  if (!weights.length) throw new CheckpointError(`${dir}: no ${WEIGHTS_FILE} (or model-*.safetensors shards)`);
  if (!names.includes(CONFIG_FILE)) throw new CheckpointError(`${dir}: no ${CONFIG_FILE}`);
  return {
    weights: await Promise.all(weights.map((w) => readFile(join(dir, w)))),
    config: await readFile(join(dir, CONFIG_FILE), 'utf8'),
    tokenizerJson: names.includes(TOKENIZER_FILE) ? await readFile(join(dir, TOKENIZER_FILE), 'utf8') : undefined,
  };
}

export async function loadCheckpointDir(dir: string): Promise<LoadedCheckpoint> {
  return loadCheckpoint(await readCheckpointDir(dir));
}
