// The seven phases of one Code-A1 step, each with a two-sentence explanation for teaching.
import type { Phase } from '../../../rl/records';

export const PHASE_INFO: Record<Phase, { title: string; explain: string }> = {
  'coder-rollout': {
    title: '1. Coder rollout',
    explain:
      'The Coder samples M candidate solutions for each problem from its current weights. The M candidates form one GRPO group, so each is later judged against its siblings rather than on an absolute scale.',
  },
  'tester-rollout': {
    title: '2. White-box tester rollout',
    explain:
      'For every candidate the Tester reads the problem and the candidate’s code and writes N groups of K assert tests aimed at breaking it. Seeing the code does not let it collude: its reward only credits tests validated against the ground truth, and the Coder is a separate model whose reward drops when those tests fail.',
  },
  validation: {
    title: '3. Extraction and validation',
    explain:
      'Tests are parsed with Python’s ast, and each call runs on the ground-truth solution, whose output is filled in as the expected value: a test is valid when its call runs there and the filled-in statement is not a repeat. A wrong expected value still counts against the Tester as invalid, so it cannot win by writing tests that merely agree with a buggy candidate.',
  },
  execution: {
    title: '4. Execution',
    explain:
      'Each candidate runs in the Pyodide sandbox against the tests aimed at it plus the Mistake Book’s replays for the problem. A test whose call ran but whose expected value was wrong still attacks, with the ground-truth output as the expected value.',
  },
  rewards: {
    title: '5. Rewards',
    explain:
      'The Coder earns its pass rate on the tests aimed at it (averaged with its replay pass rate), while the Tester earns α·validity + (1−α)·adversarial. The two rewards pull in opposite directions, which is what makes the game adversarial.',
  },
  'mistake-book': {
    title: '6. Mistake Book',
    explain:
      'Every break (a valid test that a compiling candidate failed) adds 1 to that test’s frequency in the book, entering it if new; every replayed test a compiling candidate passes loses 1, leaving at 0. Replaying the most frequent ones keeps the Coder from forgetting the bugs it already had.',
  },
  update: {
    title: '7. GRPO update',
    explain:
      'Advantages are computed within each group (a problem’s M candidates; the N tester rollouts of the candidate whose rewards vary most), and both models take a clipped policy-gradient step with a small KL penalty. Only quality relative to the group matters, so no value network is needed.',
  },
};

/** The baselines change what some phases mean: the texts say what this mode does, not what Code-A1 does. */
const MODE_TEXT: Record<'golden' | 'self-play' | 'tcs' | 'ace', Partial<Record<Phase, string>>> = {
  tcs: {
    'tester-rollout':
      'TCS trains a separate test generator. Before it writes, this step’s candidates are run on the problem’s hidden tests and join a rolling buffer of the last few steps’ candidates. In stage 1 the Tester sees this step’s candidates; in stage 2 it sees only buffered programs that still fail: the solver’s current failure modes.',
    validation:
      'Each test’s call runs on the reference solution. TCS counts a test as consistent only when the Tester’s own expected value matches the reference output, stricter than Code-A1, which fills in the reference output.',
    rewards:
      'The Coder earns its pass rate on the tests of its slot, as in Code-A1. The Tester earns consistency with the reference in stage 1, and in stage 2 the share of its tests that are consistent yet fail the buffered failing program: counterexamples.',
    update:
      'Both models take a GRPO step; the Tester’s groups are the N rollouts aimed at one buffered program. Only the reward stage and the targets differ from Code-A1.',
  },
  ace: {
    'tester-rollout':
      'ACE has one model in two roles: the same model now writes adversarial inputs for each of its own programs (the calls of its assert lines; their expected values are ignored). Its aim is an execution failure: an exception, a timeout or a crash.',
    validation:
      'No ground truth is consulted. Only the calls are extracted; whether an input is usable is decided by execution: it is well-formed when some program of the problem returns normally on it.',
    execution:
      'Every program of the problem runs every input in the hardened sandbox, as an execution-only job: it returns, raises, hangs or crashes. A well-formed input that makes a program fail breaks it.',
    rewards:
      'A program that survives every well-formed input is robust (reward 1) and becomes supervised-fine-tuning data. An input group that broke its program is desirable, one that did not is undesirable: these labels, not a scalar reward, train the adversary.',
    'mistake-book':
      'ACE keeps no Mistake Book: without a reference solution there is no verified failing test to replay.',
    update:
      'Two steps on the one model: supervised fine-tuning on the robust programs, then a KTO step that raises the likelihood of desirable input groups and lowers that of undesirable ones relative to a reference point z.',
  },
  'self-play': {
    'tester-rollout':
      'There is no separate Tester: the same model that wrote the candidates now reads each one and writes N groups of K assert tests for it. Because it is also rewarded when its own code passes, it can collude with itself by writing tests that agree with its bugs.',
    validation:
      'Tests are parsed with Python’s ast and each call runs on the ground-truth solution, exactly as in Code-A1. The one model’s test-writing half is credited for valid tests, but its code-writing half gains when those tests are easy: this conflict is what the baseline shows.',
    rewards:
      'The model earns the Coder’s pass rate for its code and the Tester’s α·validity + (1−α)·adversarial for its tests. Both rewards land on the same weights, so passing its own tests and breaking its own code pull against each other.',
    update:
      'Advantages are computed within each group (a problem’s M candidates; the N test rollouts of one candidate), and the single model takes one clipped policy-gradient step on both kinds of sample with a small KL penalty.',
  },
  golden: {
    'tester-rollout':
      'Skipped in golden mode: no Tester is trained. Each candidate is judged by the problem’s own tests, as the paper’s golden-tests baseline does.',
    validation:
      'The problem’s own tests are correct by construction, so there is nothing to validate; this phase only collects them for execution.',
    rewards:
      'The Coder earns its pass rate on the problem’s own tests (averaged with its Mistake Book replays). There is no Tester reward.',
    update:
      'Advantages are computed within each problem’s group of M candidates, and only the Coder takes a clipped policy-gradient step with a small KL penalty.',
  },
};

export function phaseExplain(p: Phase, mode: string): string {
  return (mode in MODE_TEXT ? MODE_TEXT[mode as keyof typeof MODE_TEXT][p] : undefined) ?? PHASE_INFO[p].explain;
}
