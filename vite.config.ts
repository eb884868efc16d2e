// Vite (app build + dev/preview server) and Vitest (Node unit tests) configuration.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// SharedArrayBuffer (Pyodide interrupt buffers, threaded wasm) needs cross-origin isolation.
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export default defineConfig({
  plugins: [react()],
  server: { headers: isolationHeaders, port: 5173 },
  preview: { headers: isolationHeaders, port: 4173 },
  worker: { format: 'es' },
  optimizeDeps: { exclude: ['pyodide', 'onnxruntime-web'] },
  build: { target: 'es2022', chunkSizeWarningLimit: 4096 },
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    // GPU (SwiftShader) and Pyodide tests are CPU-heavy; two cores are all we have.
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
