// ESLint: TypeScript rules, plus the boundary that core modules never touch React or browser globals.
import tseslint from 'typescript-eslint';

const coreFolders = ['src/gpu/**', 'src/model/**', 'src/rl/**', 'src/sandbox/**', 'src/tasks/**', 'src/export/**'];
// Adapters are the one place a core folder may touch a platform global.
const adapters = ['src/gpu/device-browser.ts', 'src/sandbox/worker-browser.ts', 'src/**/*-browser.ts'];

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
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'react', message: 'Core modules must not import React (move UI code to src/app).' },
            { name: 'react-dom', message: 'Core modules must not import React (move UI code to src/app).' },
            { name: 'zustand', message: 'Core modules must not import the UI store.' },
          ],
          patterns: [{ group: ['**/app/**', 'react/*', 'react-dom/*'], message: 'Core modules must not import the UI.' }],
        },
      ],
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
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'fs', 'path', 'child_process'], message: 'src/export is shared with the browser: read and write files in src/cli.' },
            { group: ['react', 'react/*', 'react-dom', 'react-dom/*', 'zustand', '**/app/**'], message: 'src/export must not import the UI.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['process', 'Buffer', '__dirname'].map((name) => ({ name, message: 'src/export is shared with the browser.' })),
        ...['window', 'document', 'navigator', 'localStorage', 'indexedDB'].map((name) => ({ name, message: 'src/export is shared with Node.' })),
      ],
    },
  },
);
