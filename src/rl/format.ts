// One compact, fixed-width line per training step, shared by the CLI and the UI's log.
import type { StepMetrics } from './metrics';
import type { SplitReport } from './eval';

const f = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : String(x));

export function formatStepLine(m: StepMetrics): string {
  return [
    `step ${String(m.step).padStart(4)}`,
    `coder r ${f(m['coder/reward_mean'])}±${f(m['coder/reward_std'], 2)}`,
    `tester r ${f(m['tester/reward_mean'])} (v ${f(m['tester/validity_mean'], 2)} a ${f(m['tester/adversarial_mean'], 2)})`,
    `book ${m['mistake_book/size']}`,
    `kl ${m['coder/kl'].toExponential(1)}`,
    `ent ${f(m['coder/entropy'], 2)}`,
    `${f(m['perf/tokens_per_s'], 0)} tok/s`,
    `t ${f(m['time/rollout_s'], 1)}/${f(m['time/sandbox_s'], 1)}/${f(m['time/update_s'], 1)}s`,
    m.skipped ? 'SKIPPED' : '',
  ]
    .filter(Boolean)
    .join(' | ');
}

/** The evaluation table printed by `npm run eval` and by training runs with --eval-every. */
export function formatReport(rows: SplitReport[]): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`.padStart(7);
  const lines = [
    'split           problems  pass@1  greedy  CodeT@1  validity  wb-mut.sc  pass@k  mut@k    Mul',
    ...rows.map(
      (r) =>
        `${r.split.padEnd(15)} ${String(r.problems).padStart(8)} ${pct(r.coderPass1)} ${pct(r.coderPass1Greedy)} ${pct(r.selectedPass1)}  ${pct(r.testerValidity)}    ${pct(r.mutationScore)} ${r.passAtK.toFixed(1).padStart(6)} ${r.mutAtK.toFixed(1).padStart(6)} ${r.mul.toFixed(1).padStart(6)}`,
    ),
  ];
  return lines.join('\n');
}

