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

/** CPU-seconds used so far by `root` and all its descendants (reaped children count through their parent). */
export function treeCpuSeconds(root: number): number {
  const all = readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map((n) => stat(Number(n)))
    .filter((s): s is Stat => !!s);
  const children = new Map<number, Stat[]>();
  for (const s of all) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  let ticks = 0;
  const stack = all.filter((s) => s.pid === root);
  while (stack.length) {
    const s = stack.pop()!;
    ticks += s.ticks;
    stack.push(...(children.get(s.pid) ?? []));
  }
  return ticks / CLK_TCK;
}
