// Shared helpers for the sandbox tests: one warm pool per test file, and small candidate builders.
import { afterAll, beforeAll } from 'vitest';
import { createNodeSandbox } from './node';
import type { SandboxPool, PoolOptions } from './pool';
import type { JudgeResult } from './types';

/** A pool warmed before the file's tests and closed after them. */
export function usePool(opts: PoolOptions = {}): () => SandboxPool {
  let pool: SandboxPool | undefined;
  beforeAll(async () => {
    pool = createNodeSandbox({ size: 1, ...opts });
    await pool.warm();
  });
  afterAll(async () => {
    await pool?.close();
  });
  return () => {
    if (!pool) throw new Error('pool not started');
    return pool;
  };
}

export const statuses = (r: JudgeResult): string[] => r.verdicts.map((v) => v.status);

/** A tiny honest candidate used to check that the pool still works after an attack. */
export const ADD = {
  code: 'def add(a, b):\n    return a + b\n',
  entryPoint: 'add',
  tests: ['assert add(1, 2) == 3', 'assert add(2, 2) == 5'],
};
