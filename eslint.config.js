// ESLint: TypeScript rules, plus the boundary that core modules never touch React or browser globals.
import tseslint from 'typescript-eslint';

const coreFolders = [
  'src/gpu/**',
  'src/model/**',
  'src/rl/**',
  'src/run/**',
  'src/analysis/**',
  'src/sandbox/**',
  'src/tasks/**',
  'src/export/**',
];
// Adapters are the one place a core folder may touch a platform global.
const adapters = ['src/gpu/device-browser.ts', 'src/sandbox/worker-browser.ts', 'src/**/*-browser.ts'];

const uiPaths = [
  { name: 'react', message: 'Core modules must not import React (move UI code to src/app).' },
  { name: 'react-dom', message: 'Core modules must not import React (move UI code to src/app).' },
  { name: 'zustand', message: 'Core modules must not import the UI store.' },
];
const uiPatterns = [
  { group: ['**/app/**', 'react/*', 'react-dom/*'], message: 'Core modules must not import the UI.' },
];
const exportNodePatterns = [
  {
    group: ['node:*', 'fs', 'path', 'child_process'],
    message: 'src/export is shared with the browser: read and write files in src/cli.',
  },
];

// The layer fence: gpu (and shaders) <- model <- rl <- run <- analysis <- app / cli / bench; tasks and sandbox sit
// below rl. rl is the training step; run is a run around it (setup, loop, store, periodic evaluation); analysis is
// research reporting over run records, which the training core never imports. A module may import its own layer and
// the layers below, never one above (a relative path climbing out into a higher layer's folder).
const fronts = ['app', 'cli', 'bench'];
const fence = {
  gpu: ['model', 'rl', 'run', 'analysis', ...fronts],
  model: ['rl', 'run', 'analysis', ...fronts],
  rl: ['run', 'analysis', ...fronts],
  run: ['analysis', ...fronts],
  analysis: fronts,
  tasks: ['rl', 'run', 'analysis', 'model', ...fronts],
  sandbox: ['rl', 'run', 'analysis', 'model', ...fronts],
  export: ['analysis', ...fronts],
};
/** no-restricted-imports for one layer's shipped modules (tests may assemble several layers). */
function fenceRule(layer) {
  const above = fence[layer];
  const patterns = [
    // The fence below already covers src/app, so the UI ban keeps only the React subpaths (one error per import).
    { group: ['react/*', 'react-dom/*'], message: 'Core modules must not import the UI.' },
    ...(layer === 'export' ? exportNodePatterns : []),
    {
      regex: `^(\\.\\./)+(${above.join('|')})(/|$)`,
      message: `Layer fence: src/${layer} must not import src/{${above.join(',')}} (gpu <- model <- rl <- run <- analysis <- app/cli/bench; tasks, sandbox below rl).`,
    },
  ];
  return ['error', { paths: uiPaths, patterns }];
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'public/**', 'test-results/**', 'playwright-report/**', 'runs/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: coreFolders,
    ignores: adapters,
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': ['error', { paths: uiPaths, patterns: uiPatterns }],
      'no-restricted-globals': [
        'error',
        { name: 'window', message: 'Browser globals belong in an adapter (*-browser.ts).' },
        { name: 'document', message: 'Browser globals belong in an adapter (*-browser.ts).' },
        { name: 'localStorage', message: 'Browser globals belong in an adapter (*-browser.ts).' },
        { name: 'indexedDB', message: 'Browser globals belong in an adapter (*-browser.ts).' },
        { name: 'navigator', message: 'Browser globals belong in an adapter (*-browser.ts).' },
      ],
    },
  },
  {
    // The exporters run in the CLI and in the page alike: no Node modules or globals outside their tests.
    files: ['src/export/**'],
    ignores: ['src/export/**/*.test.ts'],
    rules: {
      'no-restricted-imports': fenceRule('export'),
      'no-restricted-globals': [
        'error',
        ...['process', 'Buffer', '__dirname'].map((name) => ({
          name,
          message: 'src/export is shared with the browser.',
        })),
        ...['window', 'document', 'navigator', 'localStorage', 'indexedDB'].map((name) => ({
          name,
          message: 'src/export is shared with Node.',
        })),
      ],
    },
  },
  // Listed after the core block so each layer's rule (a superset of the UI ban) replaces it for shipped modules.
  ...Object.keys(fence)
    .filter((layer) => layer !== 'export')
    .map((layer) => ({
      files: [`src/${layer}/**/*.ts`],
      ignores: [`src/${layer}/**/*.test.ts`],
      rules: { 'no-restricted-imports': fenceRule(layer) },
    })),
);
