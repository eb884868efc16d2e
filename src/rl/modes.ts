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
  /**
   * Where the coder's reward comes from: the problem's golden tests, the tests the tester wrote, or (ACE) surviving
   * every well-formed adversarial input.
   */
  coderReward: 'golden-tests' | 'generated-tests' | 'robustness';
  /** How the coder learns: GRPO on its rewards, or (ACE) supervised steps on its robust programs only. */
  coderUpdate: 'grpo' | 'sft-robust';
  /** Written tests are checked against the problem's reference solution (false: ACE, execution only). */
  groundTruth: boolean;
  /** The Mistake Book replays tests that broke earlier candidates. */
  mistakeBook: boolean;
  /**
   * How a test writer's rollout is rewarded: Code-A1's validity + adversarial mix, TCS's two stages (consistency
   * with the reference, then counterexamples to the solver's current failures), or ACE's "an input broke the program".
   */
  testerReward: 'code-a1' | 'tcs-staged' | 'ace-breaks' | 'none';
  /** How the test writer learns: GRPO on its rewards, KTO on desirable / undesirable labels, or not at all. */
  testerUpdate: 'grpo' | 'kto' | 'none';
  /** Whose code the test writer sees: this step's candidates, or TCS's rolling buffer of the solver's failures. */
  testerTargets: 'step-candidates' | 'rolling-buffer';
}

const CODE_A1_RULES = {
  coderUpdate: 'grpo',
  groundTruth: true,
  mistakeBook: true,
  testerReward: 'code-a1',
  testerUpdate: 'grpo',
  testerTargets: 'step-candidates',
} as const;

export const MODE_RULES: Readonly<Record<Mode, Readonly<ModeRules>>> = {
  'code-a1': {
    usesTester: true,
    testerIsCoder: false,
    trainsTester: true,
    savesTester: true,
    coderReward: 'generated-tests',
    ...CODE_A1_RULES,
  },
  golden: {
    usesTester: false,
    testerIsCoder: false,
    trainsTester: false,
    savesTester: false,
    coderReward: 'golden-tests',
    ...CODE_A1_RULES,
    mistakeBook: false,
    testerReward: 'none',
    testerUpdate: 'none',
  },
  'self-play': {
    usesTester: true,
    testerIsCoder: true,
    trainsTester: true,
    savesTester: false,
    coderReward: 'generated-tests',
    ...CODE_A1_RULES,
  },
  // TCS: a separate Tester, trained in two stages on the solver's candidates from a rolling buffer.
  tcs: {
    usesTester: true,
    testerIsCoder: false,
    trainsTester: true,
    savesTester: true,
    coderReward: 'generated-tests',
    ...CODE_A1_RULES,
    testerReward: 'tcs-staged',
    testerTargets: 'rolling-buffer',
  },
  // ACE: one model writes programs and adversarial inputs; execution alone supervises (no reference solution).
  ace: {
    usesTester: true,
    testerIsCoder: true,
    trainsTester: true,
    savesTester: false,
    coderReward: 'robustness',
    coderUpdate: 'sft-robust',
    groundTruth: false,
    mistakeBook: false,
    testerReward: 'ace-breaks',
    testerUpdate: 'kto',
    testerTargets: 'step-candidates',
  },
};

/** A mode name read from records or a command line (a run's config names its mode as a string). */
export function isMode(mode: string): mode is Mode {
  return Object.hasOwn(MODE_RULES, mode);
}

/** Whether a run of this mode trains a test writer, so that its Tester's numbers can move at all (golden: no). */
export const trainsTester = (mode: string): boolean => isMode(mode) && MODE_RULES[mode].trainsTester;

export function modeRules(mode: Mode): Readonly<ModeRules> {
  // isMode, not a bare lookup: a name such as 'toString' is on every object's prototype, not a mode.
  if (!isMode(mode)) throw new Error(`unknown mode '${mode}' (expected ${Object.keys(MODE_RULES).join(', ')})`);
  return MODE_RULES[mode];
}
