// Bundles a browser page entry (e2e/pages/*.ts) with Vite's build API, so `?raw` WGSL imports work, and returns the
// JavaScript text a spec serves with page.route: no app or config edits.
import { build } from 'vite';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Where bundlePage writes `${name}.js` (a test server can serve this folder). */
export const bundleDir = (name: string): string => resolve(`test-results/${name}-bundle`);

export async function bundlePage(entry: string, name: string): Promise<string> {
  const outDir = bundleDir(name);
  await build({
    configFile: false,
    logLevel: 'warn',
    root: resolve('.'),
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      target: 'es2022',
      lib: { entry: resolve(entry), formats: ['es'], fileName: () => `${name}.js` },
    },
  });
  return readFileSync(resolve(outDir, `${name}.js`), 'utf8');
}
