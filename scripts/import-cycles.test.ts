// No import cycles anywhere in the repository's TypeScript (src, scripts, e2e), and the checker itself finds one.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from './import-graph';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('import cycles', () => {
  it('the repository has none', () => {
    const graph = importGraph(root, ['src', 'scripts', 'e2e']);
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get('src/gpu/kernels/attention-ref.ts')).toContain('src/gpu/kernels/attention.ts');
    expect(importCycles(graph)).toEqual([]);
  });

  it('finds a two-module cycle through a type-only import, a three-module one through import(), and a self-import', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cycles-'));
    try {
      const files: Record<string, string> = {
        'src/launcher.ts': "export { ref } from './ref';\nexport interface Shape { n: number }\n",
        'src/ref.ts': "import type { Shape } from './launcher';\nexport const ref = (s: Shape) => s.n;\n",
        'src/a/x.ts': "import { y } from '../b/y';\nexport const x = y;\n",
        'src/b/y.ts': "import { z } from './z';\nexport const y = z;\n",
        'src/b/z.ts': "export const z = async () => (await import('../a/x')).x;\n",
        'src/self.ts': "export * from './self';\n",
        'src/leaf.ts': "import { ref } from './ref';\nimport { x } from './a/x';\nexport const leaf = [ref, x];\n",
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      expect(importCycles(importGraph(dir, ['src']))).toEqual([
        ['src/a/x.ts', 'src/b/y.ts', 'src/b/z.ts'],
        ['src/launcher.ts', 'src/ref.ts'],
        ['src/self.ts'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
