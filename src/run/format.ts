// One compact, fixed-width line per training step, shared by the CLI and the UI's log.
import type { StepMetrics } from '../rl/metrics';
import { splitLabel, type SplitReport } from './eval';

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

/** The evaluation table printed by `npm run eval` and by training runs with --eval-every (95% CIs below each row). */
export function formatReport(rows: SplitReport[]): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`.padStart(7);
  const num = (x: number) => x.toFixed(1).padStart(6);
  const noSel = (r: SplitReport) => r.perProblem !== undefined && r.perProblem.every((p) => p.selected === undefined);
  const lines = ['split           problems  pass@1  greedy  CodeT@1  validity  wb-mut.sc  pass@k  mut@k    Mul'];
  for (const r of rows) {
    const sel = noSel(r) ? '      –' : pct(r.selectedPass1);
    lines.push(
      `${splitLabel(r).padEnd(15)} ${String(r.problems).padStart(8)} ${pct(r.coderPass1)} ${pct(r.coderPass1Greedy)} ${sel}  ${pct(r.testerValidity)}    ${pct(r.mutationScore)} ${num(r.passAtK)} ${num(r.mutAtK)} ${num(r.mul)}`,
    );
    const c = r.ci;
    if (c) {
      const iv = (x: [number, number], scale: number, d: number) =>
        `${(scale * x[0]).toFixed(d)}–${(scale * x[1]).toFixed(d)}`;
      // Records that name tasks were resampled by task (eval-ci.ts resamplingUnits): the label says so.
      const tasks = new Set(r.perProblem?.map((p) => p.task).filter((t) => t !== undefined));
      const unit = tasks.size ? `, drawn over ${tasks.size} tasks` : '';
      lines.push(
        `  95% CI (${r.problems} problems × ${r.samples ?? '?'} samples${unit}): pass@1 ${iv(c.coderPass1, 100, 1)}  greedy ${iv(c.coderPass1Greedy, 100, 1)}  validity ${iv(c.testerValidity, 100, 1)}  wb-mut.sc ${iv(c.mutationScore, 100, 1)}  pass@k ${iv(c.passAtK, 1, 1)}  mut@k ${iv(c.mutAtK, 1, 1)}  Mul ${iv(c.mul, 1, 1)}`,
      );
    }
    if (r.seconds)
      lines.push(
        `  time: ${Object.entries(r.seconds)
          .map(([k, v]) => `${k} ${v.toFixed(0)}s`)
          .join(', ')}`,
      );
  }
  return lines.join('\n');
}
