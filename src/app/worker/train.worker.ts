// The training Worker: owns its own WebGPU device and sandbox, runs Trainer steps, commits each step to IndexedDB,
// and streams metrics, rollouts, phases and the Mistake Book to the page.
/// <reference lib="webworker" />
import type { Gpu } from '../../gpu/runtime';
import type { Phase } from '../../rl/records';
import { TrainingHalted } from '../../rl/trainer';
import { modeRules } from '../../rl/modes';
import { toTrainConfig, type RunConfigUi } from '../config/run-config';
import type { StartModels, WorkerCommand, WorkerEvent, WorkerStatus } from './protocol';
import { openSession, type Session } from './session';
import { EVALS_FILE, rolloutsPath } from './run-files';
import { evaluate } from './evaluate';
import { countingSandbox, openGpu, openSandbox } from './platform';

declare const self: DedicatedWorkerGlobalScope;

let gpu: Gpu | null = null;
let sandbox: ReturnType<typeof countingSandbox> | null = null;
let session: Session | null = null;
let runId: string | null = null;
let running = false;
let stepThrough = false;
let gate: (() => void) | null = null;
let loop: Promise<void> | null = null;
let deviceLost = false;

function post(e: WorkerEvent): void {
  self.postMessage(e);
}

function status(s: WorkerStatus, detail?: string): void {
  post({ type: 'status', status: s, step: session?.trainer.step ?? 0, detail });
}

async function ensureOpen(id: string, config: RunConfigUi, models?: StartModels): Promise<Session> {
  if (session && runId === id) return session;
  if (session) await closeSession();
  status('opening');
  if (!gpu || gpu.lost) {
    gpu = await openGpu();
    deviceLost = false;
    gpu.onDeviceLost((info) => {
      deviceLost = true;
      running = gate ? (gate(), false) : false;
      post({ type: 'deviceLost', message: `The GPU device was lost (${info.reason}: ${info.message || 'no message'}).` });
    });
  }
  sandbox ??= countingSandbox(await openSandbox());
  session = await openSession(id, toTrainConfig(config), { gpu, sandbox }, models, (msg) => status('opening', msg));
  runId = id;
  post({ type: 'opened', runId: id, resumedFrom: session.trainer.step, history: session.history, modelSource: session.modelSource });
  post({ type: 'mistakeBook', runId: id, entries: session.trainer.book.entries(), history: session.trainer.book.state().history });
  return session;
}

async function beforePhase(phase: Phase): Promise<void> {
  if (!stepThrough || !session || !runId) return;
  post({ type: 'phaseWaiting', runId, step: session.trainer.step, phase });
  await new Promise<void>((resolve) => (gate = resolve));
  gate = null;
  if (deviceLost) throw new Error('device lost');
}

let lastProgress = 0;

async function oneStep(s: Session, id: string): Promise<void> {
  const out = await s.trainer.runStep({
    beforePhase,
    onPhase: (event) => post({ type: 'phase', runId: id, event }),
    onProgress: (phase, done, total) => {
      // Decoding reports often; the page needs a few updates a second at most.
      const now = performance.now();
      if (done < total && now - lastProgress < 200) return;
      lastProgress = now;
      post({ type: 'progress', phase, done, total });
    },
  });
  const st = s.trainer.state();
  // Commit before announcing the step, so what the page shows is what a reload restores. Same files and order as
  // the CLI (src/cli/train.ts): the tester is saved only when it is a separate, trained model.
  const coderFiles = await s.coder.save();
  const testerFiles = modeRules(s.config.mode).savesTester ? await s.tester.save() : undefined;
  const keepCopy = st.step % s.config.run.checkpoint_every === 0;
  await s.dir.commitStep(st, out.metrics, coderFiles, testerFiles, keepCopy);
  await s.store.write(rolloutsPath(out.metrics.step), new TextEncoder().encode(JSON.stringify(out.rollouts)));
  if (keepCopy) await pruneCopies(s);
  const bytes = [coderFiles, testerFiles ?? {}].reduce((n, f) => n + Object.values(f).reduce((a, b) => a + b.byteLength, 0), 0);
  post({ type: 'metrics', runId: id, metrics: out.metrics });
  post({ type: 'rollout', runId: id, step: out.metrics.step, rollouts: out.rollouts });
  post({ type: 'mistakeBook', runId: id, entries: s.trainer.book.entries(), history: st.book.history });
  post({ type: 'committed', runId: id, step: st.step, bytes });
  await postPerf();
}

/** Browser storage is small: keep the last few per-step checkpoint copies (latest/ always stays). */
const COPIES_KEPT = 3;
async function pruneCopies(s: Session): Promise<void> {
  const dirs = [...new Set((await s.store.list('checkpoints/')).map((n) => n.split('/')[0]))].sort();
  for (const d of dirs.slice(0, Math.max(0, dirs.length - COPIES_KEPT))) await s.store.remove(`checkpoints/${d}/`);
}

let callsAtLastPerf = 0;

async function postPerf(): Promise<void> {
  if (!gpu) return;
  const pool = gpu.pool.stats();
  const calls = sandbox?.calls ?? 0;
  const stepCalls = calls - callsAtLastPerf;
  callsAtLastPerf = calls;
  post({
    type: 'perf',
    kernelTimes: gpu.profile ? await gpu.kernelTimes() : [],
    gpuBytes: pool.bytesLive + pool.bytesFree,
    sandboxCalls: calls,
    stepSandboxCalls: stepCalls,
    sandboxMs: sandbox?.ms ?? 0,
    profiling: gpu.profile,
  });
}

async function fail(e: unknown): Promise<void> {
  running = false;
  // GPU calls on a destroyed device can reject before device.lost resolves: give the loss a moment to be seen.
  if (gpu && !deviceLost) await new Promise((r) => setTimeout(r, 100));
  if (deviceLost) return; // already reported as deviceLost
  const msg = e instanceof TrainingHalted ? e.message : `${(e as Error).name}: ${(e as Error).message}`;
  post({ type: 'error', message: msg });
}

function startLoop(steps: number): void {
  if (loop || !session || !runId) return;
  const s = session;
  const id = runId;
  running = true;
  status('running');
  loop = (async () => {
    let left = steps;
    try {
      while (running && left-- > 0 && !deviceLost) await oneStep(s, id);
    } catch (e) {
      await fail(e);
    } finally {
      running = false;
      loop = null;
      if (!deviceLost) status('paused');
    }
  })();
}

async function closeSession(): Promise<void> {
  running = false;
  stepThrough = false;
  gate?.();
  await loop;
  session?.close();
  session = null;
  runId = null;
}

async function handle(cmd: WorkerCommand): Promise<void> {
  switch (cmd.type) {
    case 'start':
      stepThrough = cmd.stepThrough;
      await ensureOpen(cmd.runId, cmd.config, cmd.models);
      startLoop(Infinity);
      break;
    case 'step':
      stepThrough = cmd.stepThrough;
      await ensureOpen(cmd.runId, cmd.config);
      startLoop(1);
      break;
    case 'pause':
      running = false;
      if (!loop) status(session ? 'paused' : 'idle');
      break;
    case 'stepPhase':
      gate?.();
      break;
    case 'setStepThrough':
      stepThrough = cmd.on;
      if (!cmd.on) gate?.();
      break;
    case 'reset':
      await closeSession();
      status('idle');
      break;
    case 'profile':
      if (gpu) gpu.profile = cmd.on;
      await postPerf();
      break;
    case 'eval': {
      if (loop) throw new Error('Pause the run before evaluating.');
      const s = await ensureOpen(cmd.runId, cmd.config);
      const point = await evaluate(s, cmd.split, cmd.problems, cmd.samples, (what, done, total) => post({ type: 'evalProgress', what, done, total }));
      await s.store.append(EVALS_FILE, new TextEncoder().encode(JSON.stringify(point) + '\n'));
      post({ type: 'eval', runId: cmd.runId, point });
      status('paused');
      break;
    }
    case 'loseDevice':
      gpu?.device.destroy();
      break;
  }
}

// Commands are handled one at a time, in order.
let queue: Promise<void> = Promise.resolve();
self.onmessage = (ev: MessageEvent<WorkerCommand>) => {
  queue = queue
    .then(() => handle(ev.data))
    .catch(async (e) => {
      await fail(e);
      status(session ? 'paused' : 'idle');
    });
};
