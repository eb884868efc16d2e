// CPU-seconds of a whole process tree from Linux /proc (utime + stime of every live process under a root, plus the
// children each has reaped): what a browser's GPU, renderer and worker processes cost together, beside a CLI's.
import { readdirSync, readFileSync } from 'node:fs';

const CLK_TCK = 100; // Linux USER_HZ: /proc's utime/stime unit

interface Stat {
  pid: number;
  ppid: number;
  ticks: number;
}

function stat(pid: number): Stat | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised comm (which may hold spaces): state ppid ... utime(14) stime(15) cutime cstime.
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
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

/** CPU-seconds used so far by `root` and all its descendants (reaped children count through their parent). */
export function treeCpuSeconds(root: number): number {
  return Object.values(treeCpuByKind(root)).reduce((a, b) => a + b, 0);
}

/** treeCpuSeconds split by processKind. */
export function treeCpuByKind(root: number): Record<string, number> {
  const all = readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map((n) => stat(Number(n)))
    .filter((s): s is Stat => !!s);
  const children = new Map<number, Stat[]>();
  for (const s of all) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  const out: Record<string, number> = {};
  const stack = all.filter((s) => s.pid === root);
  while (stack.length) {
    const s = stack.pop()!;
    const kind = processKind(s.pid);
    out[kind] = (out[kind] ?? 0) + s.ticks / CLK_TCK;
    stack.push(...(children.get(s.pid) ?? []));
  }
  return out;
}
