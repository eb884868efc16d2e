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
      'Tests are parsed with Python’s ast, and each call runs on the ground-truth solution: a test is valid only if the call runs and the expected value matches. Wrong assertions cost the Tester validity reward, so it cannot win by writing tests that merely agree with a buggy candidate.',
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
      'Every test that broke a candidate enters the book (+1 frequency) and every replayed test a candidate passes loses one, leaving at 0. Replaying the most frequent ones keeps the Coder from forgetting the bugs it already had.',
  },
  update: {
    title: '7. GRPO update',
    explain:
      'Advantages are computed within each group (a problem’s M candidates; the N tester rollouts of the candidate whose rewards vary most), and both models take a clipped policy-gradient step with a small KL penalty. Only quality relative to the group matters, so no value network is needed.',
  },
};
