// A worker whose boot hangs (it never says it is ready) is replaced after the boot deadline instead of holding every
// call forever; a pool whose workers all hang fails its calls with a one-line reason after three tries.
import { describe, expect, it } from 'vitest';
import { createNodeSandbox, nodeSpawner } from './node';
import type { WorkerSpawner } from './pool-types';
import { ADD, statuses } from './test-helpers';

/** The real Node worker, with its first `hangs` boots' 'ready' message lost (a boot that never finishes). */
function hangingBoots(hangs: number): WorkerSpawner & { spawned: number } {
  const s = {
    spawned: 0,
    spawn(onMessage: Parameters<WorkerSpawner['spawn']>[0], onExit: Parameters<WorkerSpawner['spawn']>[1]) {
      const hang = s.spawned++ < hangs;
      return nodeSpawner.spawn((msg) => {
        if (!(hang && msg.type === 'ready')) onMessage(msg);
      }, onExit);
    },
  };
  return s;
}

describe('sandbox boot deadline', { timeout: 180_000 }, () => {
  it('a hung boot is replaced and the call then runs', async () => {
    const spawner = hangingBoots(1);
    const pool = createNodeSandbox({ size: 1, bootTimeoutMs: 8_000 }, spawner);
    try {
      const r = await pool.judge(ADD);
      expect(statuses(r)).toEqual(['passed', 'failed']);
      expect(spawner.spawned).toBe(2);
      expect(pool.stats.respawns).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('three hung boots in a row fail the call, naming why', async () => {
    const pool = createNodeSandbox({ size: 1, bootTimeoutMs: 4_000 }, hangingBoots(99));
    try {
      await expect(pool.judge(ADD)).rejects.toThrow(/failed to start: not ready 4 s after it was started/);
    } finally {
      await pool.close();
    }
  });
});
