// Node adapter for the corpora: writes JSONL files.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type CorpusExample, toJsonl } from './corpus';

export function writeJsonl(path: string, examples: readonly CorpusExample[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, toJsonl(examples));
}
