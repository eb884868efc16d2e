// The reward formulas against hand-computed cases from the published reward module (compute_dual_model_reward).
import { describe, expect, it } from 'vitest';
import {
  adversarialReward,
  coderReward,
  nonPrintableRatio,
  rolloutPassRate,
  testerReward,
  validityReward,
  type TesterRolloutOutcome,
} from './rewards';

const outcome = (
  numValid: number,
  numInvalid: number,
  numPassed: number,
  numFailedFirstK: number,
  nonPrintableRatio = 0,
): TesterRolloutOutcome => ({
  numValid,
  numInvalid,
  numPassed,
  numFailedFirstK,
  nonPrintableRatio,
});

describe('rewards', () => {
  it('validity = clip(min(valid/K, 1 - invalid/K), 0, 1)', () => {
    expect(validityReward(8, 0, 8)).toBe(1);
    expect(validityReward(10, 0, 8)).toBe(1); // more than K valid tests: clipped
    expect(validityReward(6, 2, 8)).toBe(0.75);
    expect(validityReward(2, 1, 8)).toBe(0.25); // few tests: limited by valid/K
    expect(validityReward(1, 8, 8)).toBe(0);
    expect(validityReward(3, 6, 4)).toBe(0); // clipped below
  });

  it('adversarial: first-K failures / K, the replay mix, and 0 without a valid test', () => {
    expect(adversarialReward(outcome(4, 0, 2, 2), 8)).toBe(0.25);
    // (gen_fail − replay_fail + 1) / 2
    expect(adversarialReward(outcome(4, 0, 2, 2), 8, { numReplayed: 4, numReplayFailed: 1 })).toBe(
      (0.25 - 0.25 + 1) / 2,
    );
    expect(adversarialReward(outcome(8, 0, 0, 8), 8, { numReplayed: 2, numReplayFailed: 0 })).toBe(1);
    // No valid test: 0 even when the replays all pass (the old formula gave (0 − 0 + 1) / 2 = 0.5).
    expect(adversarialReward(outcome(0, 3, 0, 0), 8, { numReplayed: 2, numReplayFailed: 0 })).toBe(0);
    expect(adversarialReward(outcome(0, 0, 0, 0), 8)).toBe(0);
  });

  it('tester reward mixes validity and adversarial with alpha, zero for invalid code, minus the non-printable share', () => {
    const o = outcome(6, 2, 3, 3);
    const r = testerReward(o, 8, 0.5, true);
    expect(r.validity).toBe(0.75);
    expect(r.adversarial).toBe(3 / 8);
    expect(r.reward).toBeCloseTo(0.5 * 0.75 + 0.5 * 0.375, 12);
    expect(testerReward(o, 8, 0.5, false).reward).toBe(0);
    expect(testerReward({ ...o, nonPrintableRatio: 0.25 }, 8, 0.5, true).reward).toBeCloseTo(r.reward - 0.25, 12);
    // The penalty applies also when the candidate is not valid code (the release subtracts it first).
    expect(testerReward({ ...o, nonPrintableRatio: 0.25 }, 8, 0.5, false).reward).toBe(-0.25);
    expect(testerReward(o, 8, 1, true).reward).toBe(0.75);
  });

  it('coder reward: pass rate over all valid tests, mixed with replays, averaged over rollouts (empty ones count 0)', () => {
    expect(coderReward(false, [{ numValid: 4, numPassed: 4 }])).toBe(0);
    // Three rollouts: 3/4, 0/2 and one with no valid test (0, not left out).
    expect(
      coderReward(true, [
        { numValid: 4, numPassed: 3 },
        { numValid: 2, numPassed: 0 },
        { numValid: 0, numPassed: 0 },
      ]),
    ).toBeCloseTo(0.75 / 3, 12);
    expect(coderReward(true, [{ numValid: 4, numPassed: 4 }], { numReplayed: 2, numReplayFailed: 2 })).toBe(0.5);
    // No valid test but replays: the replay pass rate alone.
    expect(rolloutPassRate(true, { numValid: 0, numPassed: 0 }, { numReplayed: 4, numReplayFailed: 1 })).toBe(0.75);
    expect(coderReward(true, [{ numValid: 0, numPassed: 0 }], { numReplayed: 4, numReplayFailed: 1 })).toBe(0.75);
    expect(coderReward(true, [])).toBe(0);
    // All valid tests count in the pass rate, more than K included.
    expect(rolloutPassRate(true, { numValid: 12, numPassed: 3 })).toBe(0.25);
  });

  it('non-printable share: characters outside string.printable over all characters', () => {
    expect(nonPrintableRatio('assert f(1) == 2\n\tok')).toBe(0);
    expect(nonPrintableRatio('ab\u0001d')).toBe(0.25);
    expect(nonPrintableRatio('é')).toBe(1); // non-ASCII is outside string.printable
    expect(nonPrintableRatio('a\u{1F600}')).toBe(0.5); // one code point, not two UTF-16 units
    expect(nonPrintableRatio('')).toBe(0);
  });
});
