// One process of `npm run bench:step`: opens the lab for a preset, runs warm-up and timed Code-A1 steps, and prints
// one JSON line per step (phase breakdown, CPU seconds, main-thread time, dispatches, row-steps, shader compiles,
// a hash of the sampled tokens and the step's metrics). Kept free of anything newer than the trainer/lab APIs so
// `--ab REF` can run this very file inside a checkout of an older revision.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openNodeLab } from '../cli/lab-node';
import { presetConfig, type PresetName } from '../rl/config';
import { Trainer } from '../rl/trainer';
import type { Generation, GenerateOptions } from '../rl/policy';

const CLK_TCK = 100; // Linux USER_HZ: /proc's utime/stime unit

/** CPU seconds of the main thread (the thread whose id is the process id), from /proc. */
function mainThreadCpu(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / CLK_TCK; // fields 14 and 15 (utime, stime), counted after the comm field
  } catch {
    return NaN;
  }
}

/**
 * CPU nanoseconds the main thread has run, from /proc's schedstat (exact, unlike stat's 10 ms ticks): what a
 * synchronous compile costs this thread, which the wall time inside the call overstates under other people's load.
 */
function mainThreadCpuNs(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return NaN;
  }
}

function processCpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

interface Meter {
  wall: number;
  cpu: number;
  main: number;
  /** Milliseconds inside the synchronous pipeline and shader-module constructors (compilation on this thread). */
  compileMs: number;
  /** Main-thread CPU milliseconds inside those constructors. */
  compileCpuMs: number;
  /** Pipelines compiled synchronously (createComputePipeline). */
  compiles: number;
  /** Pipelines requested with createComputePipelineAsync, and the milliseconds this thread spent issuing them. */
  asyncCompiles: number;
  asyncIssueMs: number;
  dispatches: number;
  submits: number;
  rowSteps: number;
}

function fnv(h: number, x: number): number {
  return Math.imul(h ^ x, 0x01000193) >>> 0;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const opt = (k: string, d: string) => {
    const i = argv.indexOf(`--${k}`);
    return i >= 0 ? argv[i + 1] : d;
  };
  const presetName = opt('preset', 'tiny') as PresetName;
  const steps = Number(opt('steps', '2'));
  const problems = Number(opt('problems', '4'));
  const seed = Number(opt('seed', '1'));
  const config = presetConfig(presetName, { seed, rollout: { problems_per_step: problems } });
  // The pipeline warm-up is on (step 0's compiles off the main thread); --no-warmup turns it off, to measure what it
  // costs later steps. (Revisions without the warm-up take no fourth argument and ignore it.)
  const lab = await openNodeLab(config, undefined, undefined, argv.includes('--no-warmup') ? 'none' : 'train');
  const gpu = lab.gpu;
  const m: Meter = {
    wall: 0,
    cpu: 0,
    main: 0,
    compileMs: 0,
    compileCpuMs: 0,
    compiles: 0,
    asyncCompiles: 0,
    asyncIssueMs: 0,
    dispatches: 0,
    submits: 0,
    rowSteps: 0,
  };

  // Shader compilation on the main thread: time spent inside the synchronous pipeline/module constructors. (A warm-up
  // that starts before these wrappers are installed is still counted: its calls happen after openNodeLab returns.)
  const dev = gpu.device as unknown as Record<string, (...a: unknown[]) => unknown>;
  for (const name of ['createComputePipeline', 'createShaderModule']) {
    const orig = dev[name].bind(gpu.device);
    dev[name] = (...a: unknown[]) => {
      const t = performance.now();
      const c = mainThreadCpuNs();
      const r = orig(...a);
      m.compileCpuMs += (mainThreadCpuNs() - c) / 1e6;
      m.compileMs += performance.now() - t;
      if (name === 'createComputePipeline') m.compiles++;
      return r;
    };
  }
  const origAsync = dev.createComputePipelineAsync?.bind(gpu.device);
  if (origAsync) {
    dev.createComputePipelineAsync = (...a: unknown[]) => {
      const t = performance.now();
      const r = origAsync(...a);
      m.asyncIssueMs += performance.now() - t;
      m.asyncCompiles++;
      return r;
    };
  }
  // Row-steps: every token-sampling dispatch runs one workgroup per batch row. The counter-advance kernel shares the
  // 'sample' family but is compiled with WG = 64 (the sampler uses 16 threads per row below 4,096 tokens).
  const rec = gpu.recordDispatch.bind(gpu);
  gpu.recordDispatch = (family, pipeline, bindGroup, x, y, z) => {
    if (family === 'sample' && !pipeline.label.includes('WG=64')) m.rowSteps += x * y * z;
    return rec(family, pipeline, bindGroup, x, y, z);
  };

  // Kept tokens and a fingerprint of everything sampled (A/B runs must agree on it).
  let kept = 0;
  let rows = 0;
  let tokenHash = 0x811c9dc5;
  for (const policy of new Set([lab.coder, lab.tester])) {
    const orig = policy.generate.bind(policy);
    policy.generate = async (prompts: string[], o: GenerateOptions): Promise<Generation[]> => {
      const out = await orig(prompts, o);
      for (const g of out) {
        kept += g.completionTokens.length;
        rows++;
        for (const t of g.completionTokens) tokenHash = fnv(tokenHash, t);
        tokenHash = fnv(tokenHash, 0xffff);
      }
      return out;
    };
  }

  const trainer = new Trainer(config, {
    sandbox: lab.sandbox,
    coder: lab.coder,
    tester: lab.tester,
    problems: lab.trainProblems,
  });
  const snap = () => ({
    wall: performance.now(),
    cpu: processCpu(),
    main: mainThreadCpu(),
    compileMs: m.compileMs,
    compileCpuMs: m.compileCpuMs,
    compiles: m.compiles,
    asyncCompiles: m.asyncCompiles,
    asyncIssueMs: m.asyncIssueMs,
    dispatches: gpu.dispatches,
    submits: gpu.submits,
    rowSteps: m.rowSteps,
  });
  const diff = (a: ReturnType<typeof snap>, b: ReturnType<typeof snap>) => ({
    wallS: (b.wall - a.wall) / 1000,
    cpuS: b.cpu - a.cpu,
    mainCpuS: b.main - a.main,
    compileMs: b.compileMs - a.compileMs,
    compileCpuMs: b.compileCpuMs - a.compileCpuMs,
    compiles: b.compiles - a.compiles,
    asyncCompiles: b.asyncCompiles - a.asyncCompiles,
    asyncIssueMs: b.asyncIssueMs - a.asyncIssueMs,
    dispatches: b.dispatches - a.dispatches,
    submits: b.submits - a.submits,
    rowSteps: b.rowSteps - a.rowSteps,
  });
  try {
    for (let s = 0; s < steps; s++) {
      const phases: Record<string, ReturnType<typeof diff>> = {};
      let at = snap();
      let phaseStart = at;
      kept = 0;
      rows = 0;
      const start = at;
      const out = await trainer.runStep({
        beforePhase: async () => {
          phaseStart = snap();
        },
        onPhase: (e) => {
          const now = snap();
          phases[e.phase] = diff(phaseStart, now);
          at = now;
        },
      });
      const total = diff(start, snap());
      const metrics: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(out.metrics))
        if (!k.startsWith('time') && !k.startsWith('perf') && k !== 'time') metrics[k] = v;
      console.log(
        JSON.stringify({
          kind: 'step',
          step: s,
          total,
          phases,
          keptTokens: kept,
          rows,
          tokenHash: tokenHash.toString(16),
          metrics,
        }),
      );
    }
  } finally {
    await lab.close();
  }
}

// Not args.runMain: `--ab` runs this very file inside older checkouts, whose args.ts has no runMain.
main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  },
);
