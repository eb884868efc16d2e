// What each training mode does, in one table: the trainer, the run loops, evaluation and the UI read these rules
// instead of restating `mode === ...` (docs/method.md describes the modes).
import type { Mode } from './metrics';

export interface ModeRules {
  /** A model writes tests (tester rollout, validation, Mistake Book); false: the coder is judged by fixed tests. */
  usesTester: boolean;
  /** The tests are written by the coder itself (one model plays both roles). */
  testerIsCoder: boolean;
  /** The test writer gets a GRPO update from the tester reward (into the coder's weights when testerIsCoder). */
  trainsTester: boolean;
  /** A separate tester checkpoint is saved with each step. */
  savesTester: boolean;
  /** Where the coder's reward comes from: the problem's golden tests, or the tests the tester wrote. */
  coderReward: 'golden-tests' | 'generated-tests';
}

export const MODE_RULES: Readonly<Record<Mode, Readonly<ModeRules>>> = {
  'code-a1': {
    usesTester: true,
    testerIsCoder: false,
    trainsTester: true,
    savesTester: true,
    coderReward: 'generated-tests',
  },
  golden: {
    usesTester: false,
    testerIsCoder: false,
    trainsTester: false,
    savesTester: false,
    coderReward: 'golden-tests',
  },
  'self-play': {
    usesTester: true,
    testerIsCoder: true,
    trainsTester: true,
    savesTester: false,
    coderReward: 'generated-tests',
  },
};

export function modeRules(mode: Mode): Readonly<ModeRules> {
  const rules = MODE_RULES[mode];
  if (!rules) throw new Error(`unknown mode '${mode}' (expected ${Object.keys(MODE_RULES).join(', ')})`);
  return rules;
}
