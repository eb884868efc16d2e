// Node side of the ONNX page: bundles e2e/pages/onnx.ts with Vite's build API and serves it plus onnxruntime-web's
// wasm files through page.route (no app, server or config changes). Used by e2e/onnx.spec.ts and src/bench/bench-onnx.ts.
import type { Page } from '@playwright/test';
import { build } from 'vite';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ORT_DIST = resolve('node_modules/onnxruntime-web/dist');
/** The files the extern-wasm build (ort.min.mjs) loads for the wasm and (JSEP) webgpu EPs. */
const ORT_FILES = ['ort-wasm-simd-threaded.jsep.mjs', 'ort-wasm-simd-threaded.jsep.wasm'];

export async function buildOnnxPage(outDir = resolve('test-results/onnx-bundle')): Promise<string> {
  await build({
    configFile: false,
    logLevel: 'warn',
    root: resolve('.'),
    // The default 'onnxruntime-web' import inlines its 28 MB wasm into a lib bundle; the extern build fetches it.
    resolve: { alias: [{ find: /^onnxruntime-web$/, replacement: resolve(ORT_DIST, 'ort.min.mjs') }] },
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      target: 'es2022',
      lib: { entry: resolve('e2e/pages/onnx.ts'), formats: ['es'], fileName: () => 'onnx.js' },
    },
  });
  return readFileSync(resolve(outDir, 'onnx.js'), 'utf8');
}

/**
 * Routes `${origin}/__onnx/` to the page: index.html (cross-origin isolated, so the wasm EP may use threads),
 * onnx.js, and ort/<file> from onnxruntime-web's dist. Returns the page URL and the ortBase to pass in.
 */
export async function serveOnnxPage(
  page: Page,
  origin: string,
  bundle: string,
): Promise<{ url: string; ortBase: string }> {
  const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
  await page.route(`${origin}/__onnx/index.html`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      headers: isolation,
      body: '<!doctype html><title>onnx</title><script type="module" src="onnx.js"></script>',
    }),
  );
  await page.route(`${origin}/__onnx/onnx.js`, (route) =>
    route.fulfill({ contentType: 'text/javascript', headers: isolation, body: bundle }),
  );
  await page.route(`${origin}/__onnx/ort/*`, (route) => {
    const file = new URL(route.request().url()).pathname.split('/').pop() ?? '';
    if (!ORT_FILES.includes(file)) return route.fulfill({ status: 404, body: `not served: ${file}` });
    const type = file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript';
    return route.fulfill({ contentType: type, headers: isolation, body: readFileSync(resolve(ORT_DIST, file)) });
  });
  return { url: `${origin}/__onnx/index.html`, ortBase: `${origin}/__onnx/ort/` };
}
