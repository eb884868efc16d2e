// CPU-seconds of a whole process tree from Linux /proc (utime + stime of every live process under a root, plus the
// children each has reaped): what a browser's GPU, renderer and worker processes cost together, beside a CLI's. Split
// by process kind and, within a process, by thread name, so a browser's extra cost can be placed (the GPU process's
// main thread decoding commands vs SwiftShader's workers running kernels; the CLI's main thread vs Dawn's).
import { readdirSync, readFileSync } from 'node:fs';

const CLK_TCK = 100; // Linux USER_HZ: /proc's utime/stime unit

interface Stat {
  pid: number;
  ppid: number;
  /** utime + stime of the process (all its threads, exited ones included). */
  own: number;
  /** cutime + cstime: children it has reaped. */
  reaped: number;
}

/** Fields after the parenthesised comm (which may hold spaces): state ppid ... utime(14) stime(15) cutime cstime. */
function fields(path: string): string[] {
  const s = readFileSync(path, 'utf8');
  return s.slice(s.lastIndexOf(')') + 2).split(' ');
}

function stat(pid: number): Stat | undefined {
  try {
    const f = fields(`/proc/${pid}/stat`);
    return { pid, ppid: Number(f[1]), own: Number(f[11]) + Number(f[12]), reaped: Number(f[13]) + Number(f[14]) };
  } catch {
    return undefined; // exited between listing and reading
  }
}

/** A process's kind: Chromium's --type=…, Firefox's content-process kind (tab, gpu, rdd, utility, …), else 'main'. */
export function processKind(pid: number): string {
  try {
    // Chromium rewrites its children's argv in place, joined by spaces rather than NULs.
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split(/[\0 ]+/)
      .filter(Boolean);
    const type = args.find((a) => a.startsWith('--type='));
    if (type) return type.slice(7);
    if (args.includes('-contentproc')) return args.at(-1) ?? 'content';
    return 'main';
  } catch {
    return 'gone';
  }
}

/** CPU-seconds per thread name in one process (digits folded to '#', so a pool's threads add up). */
function byThread(pid: number, own: number): Record<string, number> {
  const out: Record<string, number> = {};
  let live = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const f = fields(`/proc/${pid}/task/${tid}/stat`);
        const ticks = Number(f[11]) + Number(f[12]);
        const name = Number(tid) === pid ? '(main thread)' : readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8');
        const key = name.trim().replace(/\d+/g, '#');
        out[key] = (out[key] ?? 0) + ticks / CLK_TCK;
        live += ticks;
      } catch {
        // The thread exited between listing and reading.
      }
    }
  } catch {
    return { '(gone)': own / CLK_TCK };
  }
  if (own > live) out['(exited threads)'] = (own - live) / CLK_TCK;
  return out;
}

export interface TreeCpu {
  /** CPU-seconds per process kind. */
  kinds: Record<string, number>;
  /** CPU-seconds per `kind/thread name`. */
  threads: Record<string, number>;
}

/** CPU-seconds used so far by `root` and all its descendants, split by process kind and by thread. */
export function treeCpu(root: number): TreeCpu {
  const all = readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map((n) => stat(Number(n)))
    .filter((s): s is Stat => !!s);
  const children = new Map<number, Stat[]>();
  for (const s of all) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  const kinds: Record<string, number> = {};
  const threads: Record<string, number> = {};
  const stack = all.filter((s) => s.pid === root);
  while (stack.length) {
    const s = stack.pop()!;
    const kind = processKind(s.pid);
    kinds[kind] = (kinds[kind] ?? 0) + (s.own + s.reaped) / CLK_TCK;
    for (const [name, v] of Object.entries(byThread(s.pid, s.own))) {
      threads[`${kind}/${name}`] = (threads[`${kind}/${name}`] ?? 0) + v;
    }
    if (s.reaped)
      threads[`${kind}/(reaped children)`] = (threads[`${kind}/(reaped children)`] ?? 0) + s.reaped / CLK_TCK;
    stack.push(...(children.get(s.pid) ?? []));
  }
  return { kinds, threads };
}

/** treeCpu's process-kind split. */
export function treeCpuByKind(root: number): Record<string, number> {
  return treeCpu(root).kinds;
}

/** CPU-seconds used so far by `root` and all its descendants (reaped children count through their parent). */
export function treeCpuSeconds(root: number): number {
  return Object.values(treeCpuByKind(root)).reduce((a, b) => a + b, 0);
}
