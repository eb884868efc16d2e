// What JS reads of a judge job's tests without Python: each `assert <entry>(literals) == <literal>` becomes a call
// prep (arguments and expected value as plain trees); the rest are left for the harness's phase E.
import { literalTest } from './literal';
import type { JudgeJob, PrepOut } from './protocol';

/** Preps of the tests JS could read (forced steps marked), and the indices Python must prepare. */
export function literalPreps(job: JudgeJob): { prep: PrepOut[]; pyIdx: number[] } {
  const forced = job.forced ?? {};
  const prep: PrepOut[] = new Array<PrepOut>(job.tests.length);
  const pyIdx: number[] = [];
  job.tests.forEach((t, i) => {
    if (forced[i]) return void (prep[i] = { k: 'x', e: 'Forced', m: '' });
    // Only a call of the entry point is a call test; `assert len(...) == 2` is a statement (replayed in phase S).
    const lit = literalTest(t);
    if (lit && lit.fn === job.entryPoint)
      prep[i] = {
        k: 'c',
        fn: lit.fn,
        a: ['t', ...lit.args],
        kw: ['d', ...Object.entries(lit.kwargs).flat()],
        x: lit.expected,
      };
    else pyIdx.push(i);
  });
  return { prep, pyIdx };
}
