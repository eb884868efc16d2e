// Small helpers the bench CLIs share: a plain-text table and a wall + CPU timer that waits for the GPU.
import type { Gpu } from '../gpu/runtime';

export function table(title: string, head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  console.log(`\n${title}`);
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
