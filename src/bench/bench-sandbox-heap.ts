// `npm run bench:sandbox-heap [-- --jobs N --repeats N --grow-mib N]`: what a job that grows the wasm heap costs the
// honest jobs after it on the same worker. One worker: N honest suites on a fresh worker, one job that grows memory by
// --grow-mib (default 200, under the 256 MiB recycle threshold), N honest suites again; the ratio of the two medians
// (ms per suite, wall and CPU of this process and its worker threads) and of the bytes each restore reads. Run with
// the pool as configured and, as the same-run baseline, with recycling on growth switched off (the old behaviour).
import { createNodeSandbox } from '../sandbox/node';
import type { PoolOptions } from '../sandbox/pool';
import type { JudgeRequest } from '../sandbox/types';
import { runMain } from '../cli/args';
import { parseCli } from '../cli/cli-spec';
import { BENCH_SANDBOX_HEAP_SPEC } from '../cli/help/bench-specs';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const suite = (i: number): JudgeRequest => ({
  code: `def f(xs):\n    # suite ${i}\n    return sorted(xs)[::-1]\n`,
  entryPoint: 'f',
  tests: Array.from({ length: 8 }, (_, j) => `assert f([${j + 2}, ${j + i + 3}, 1]) == [${j + i + 3}, ${j + 2}, 1]`),
});

const grow = (mib: number): JudgeRequest => ({
  code: 'def f(n):\n    b = bytearray(n)\n    return len(b)\n',
  entryPoint: 'f',
  tests: [`assert f(${mib} * 2**20) == ${mib} * 2**20`],
  timeoutMs: 20_000,
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface Phase {
  wallMs: number;
  cpuMs: number;
  bytesPerRestore: number;
}

async function honest(pool: ReturnType<typeof createNodeSandbox>, jobs: number, from: number): Promise<Phase> {
  const s0 = { ...pool.stats };
  const [w0, c0] = [performance.now(), cpuMs()];
  // One at a time: a suite's own cost, not the pool's pipelining.
  for (let i = 0; i < jobs; i++) {
    const r = await pool.judge(suite(from + i));
    if (r.verdicts.some((v) => v.status !== 'passed')) throw new Error(`honest suite failed: ${JSON.stringify(r)}`);
  }
  const restores = pool.stats.restores - s0.restores;
  return {
    wallMs: (performance.now() - w0) / jobs,
    cpuMs: (cpuMs() - c0) / jobs,
    bytesPerRestore: (pool.stats.restoredBytes - s0.restoredBytes) / Math.max(1, restores),
  };
}

async function main(): Promise<void> {
  if (!parseCli(BENCH_SANDBOX_HEAP_SPEC, process.argv.slice(2))) return;
  const jobs = flag('--jobs', 200);
  const repeats = flag('--repeats', 3);
  const mib = flag('--grow-mib', 200);
  // Copy restores: every restore writes (and so reads) everything it covers, so restoredBytes counts the work.
  const configs: [string, PoolOptions][] = [
    ['as configured', { restore: 'copy' }],
    ['no recycling on growth (before)', { restore: 'copy', recycleGrowthBytes: Number.MAX_SAFE_INTEGER }],
  ];
  console.log(`${jobs} honest suites before and after one job growing the heap by ${mib} MiB; ${repeats} repeats`);
  for (const [name, opts] of configs) {
    const ratios: { wall: number[]; cpu: number[]; bytes: number[] } = { wall: [], cpu: [], bytes: [] };
    for (let r = 0; r < repeats; r++) {
      const pool = createNodeSandbox({ size: 1, ...opts });
      try {
        await pool.warm();
        await honest(pool, 20, 0); // warm caches and the JIT before timing
        const fresh = await honest(pool, jobs, 100);
        const g = await pool.judge(grow(mib));
        if (g.verdicts[0].status !== 'passed') throw new Error(`growing job: ${JSON.stringify(g.verdicts)}`);
        await pool.warm();
        const after = await honest(pool, jobs, 100);
        ratios.wall.push(after.wallMs / fresh.wallMs);
        ratios.cpu.push(after.cpuMs / fresh.cpuMs);
        ratios.bytes.push(after.bytesPerRestore / fresh.bytesPerRestore);
        console.log(
          `  ${name}: fresh ${fresh.wallMs.toFixed(2)} ms wall / ${fresh.cpuMs.toFixed(2)} ms CPU per suite, ` +
            `${(fresh.bytesPerRestore / 2 ** 20).toFixed(1)} MiB per restore; after ${after.wallMs.toFixed(2)} / ` +
            `${after.cpuMs.toFixed(2)} ms, ${(after.bytesPerRestore / 2 ** 20).toFixed(1)} MiB; ` +
            `respawns ${pool.stats.respawns}`,
        );
      } finally {
        await pool.close();
      }
    }
    const fmt = (xs: number[]) => `min ${Math.min(...xs).toFixed(2)}× median ${median(xs).toFixed(2)}×`;
    console.log(
      `${name}: after/fresh wall ${fmt(ratios.wall)}, CPU ${fmt(ratios.cpu)}, bytes per restore ${fmt(ratios.bytes)}`,
    );
  }
}

runMain(main);
