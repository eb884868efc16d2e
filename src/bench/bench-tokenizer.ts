// Node-only measurement: trains the BPE tokenizer on ~2 MB of real Python (default: the system's stdlib) and
// prints training time, held-out compression and roundtrip. Run: npx tsx src/bench/bench-tokenizer.ts [dir]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { trainTokenizer } from '../model/tokenizer-train';
import { loadTokenizer } from '../model/tokenizer';

const root = process.argv[2] ?? '/usr/lib/python3.11';
const LIMIT = 2_000_000;
const texts: string[] = [];
let size = 0;
const walk = (dir: string): void => {
  for (const f of readdirSync(dir).sort()) {
    if (size > LIMIT) return;
    const p = join(dir, f);
    if (statSync(p).isDirectory()) {
      if (!f.startsWith('test')) walk(p);
    } else if (f.endsWith('.py')) {
      const t = readFileSync(p, 'utf8');
      texts.push(t);
      size += t.length;
    }
  }
};
walk(root);
const held = texts.pop() ?? '';
for (const vocabSize of [512, 1024, 2048]) {
  const t0 = performance.now();
  const json = trainTokenizer(texts, { vocabSize });
  const seconds = (performance.now() - t0) / 1000;
  const tok = loadTokenizer(json);
  const ids = tok.encode(held);
  console.log(
    `vocab ${tok.vocabSize}: ${(size / 1e6).toFixed(2)} MB in ${texts.length} files, train ${seconds.toFixed(2)} s, ` +
      `held-out ${(held.length / Math.max(1, ids.length)).toFixed(2)} chars/token, roundtrip ${tok.decode(ids) === held}`,
  );
}
