// Shared by the bench CLIs: repeated measurement (wall and process CPU seconds, min and median) and plain tables.
import { readdirSync, readFileSync } from 'node:fs';
import type { Gpu } from '../gpu/runtime';

export interface Measured {
  wall: number[];
  cpu: number[];
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : NaN;
}

export const minOf = (xs: readonly number[]): number => (xs.length ? Math.min(...xs) : NaN);

/** Process CPU seconds (every thread: SwiftShader's workers count, which is the point on a shared machine). */
export function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** CPU seconds of every thread but the main one (which spins while awaiting the GPU); NaN off Linux. */
export function workerCpuSeconds(): number {
  try {
    let ticks = 0;
    for (const tid of readdirSync('/proc/self/task')) {
      if (Number(tid) === process.pid) continue;
      try {
        const f = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
        ticks += Number(f[11]) + Number(f[12]);
      } catch {
        // The thread exited between listing and reading.
      }
    }
    return ticks / 100;
  } catch {
    return NaN;
  }
}

/** Runs `fn` once untimed (compiles, pool warm-up), then `reps` timed runs; seconds. */
export async function measure(reps: number, fn: () => Promise<unknown>): Promise<Measured> {
  await fn();
  const out: Measured = { wall: [], cpu: [] };
  for (let i = 0; i < reps; i++) {
    const c = cpuSeconds();
    const t = performance.now();
    await fn();
    out.wall.push((performance.now() - t) / 1000);
    out.cpu.push(cpuSeconds() - c);
  }
  return out;
}

export function fmt(x: number, digits = 2): string {
  return Number.isFinite(x) ? x.toFixed(digits) : '-';
}

/** A plain text table under a blank line and `title` (no title line when it is empty). */
export function table(title: string, head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  if (title) console.log(`\n${title}`);
  console.log(head.map((h, i) => h.padEnd(widths[i])).join('  '));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i])).join('  '));
}

/** Seconds of wall time and of this process's CPU time for `fn`, up to the GPU's idle. */
export async function timedCpu(gpu: Gpu, fn: () => Promise<unknown> | void): Promise<{ wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t = performance.now();
  await fn();
  await gpu.sync();
  const c = process.cpuUsage(c0);
  return { wall: (performance.now() - t) / 1000, cpu: (c.user + c.system) / 1e6 };
}
