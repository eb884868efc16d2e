// The reward formulas against hand-computed cases from DESIGN.md step 6.
import { describe, expect, it } from 'vitest';
import { adversarialReward, coderReward, hasNonPrintable, testerReward, validityReward } from './rewards';

const outcome = (numValid: number, numInvalid: number, numValidInput: number, numValidInputFailed: number) => ({
  numTests: numValid + numInvalid,
  numValid,
  numInvalid,
  numValidInput,
  numValidInputFailed,
  nonPrintable: false,
});

describe('rewards', () => {
  it('validity = clip(min(valid/K, 1 - invalid/K), 0, 1)', () => {
    expect(validityReward(8, 0, 8)).toBe(1);
    expect(validityReward(6, 2, 8)).toBe(0.75);
    expect(validityReward(2, 1, 8)).toBe(0.25); // few tests: limited by valid/K
    expect(validityReward(0, 8, 8)).toBe(0);
    expect(validityReward(3, 6, 4)).toBe(0); // clipped below
  });

  it('adversarial without and with replays', () => {
    expect(adversarialReward(outcome(4, 0, 4, 2), 8)).toBe(0.25);
    // (gen_fail − replay_fail + 1) / 2
    expect(adversarialReward(outcome(4, 0, 4, 2), 8, { numReplayed: 4, numReplayFailed: 1 })).toBe((0.25 - 0.25 + 1) / 2);
    expect(adversarialReward(outcome(8, 0, 8, 8), 8, { numReplayed: 2, numReplayFailed: 0 })).toBe(1);
  });

  it('tester reward mixes validity and adversarial with alpha, zero for invalid code, penalised for junk', () => {
    const o = outcome(6, 2, 7, 3);
    const r = testerReward(o, 8, 0.5, true, 0.1);
    expect(r.validity).toBe(0.75);
    expect(r.adversarial).toBe(3 / 8);
    expect(r.reward).toBeCloseTo(0.5 * 0.75 + 0.5 * 0.375, 12);
    expect(testerReward(o, 8, 0.5, false, 0.1).reward).toBe(0);
    expect(testerReward({ ...o, nonPrintable: true }, 8, 0.5, true, 0.1).reward).toBeCloseTo(r.reward - 0.1, 12);
    expect(testerReward(o, 8, 1, true, 0).reward).toBe(0.75);
  });

  it('coder reward averages pass rate over rollouts and with replays', () => {
    expect(coderReward(false, [{ numValidInput: 4, numValidInputFailed: 0 }])).toBe(0);
    expect(
      coderReward(true, [
        { numValidInput: 4, numValidInputFailed: 1 },
        { numValidInput: 2, numValidInputFailed: 2 },
        { numValidInput: 0, numValidInputFailed: 0 },
      ]),
    ).toBeCloseTo((0.75 + 0) / 2, 12);
    expect(coderReward(true, [{ numValidInput: 4, numValidInputFailed: 0 }], { numReplayed: 2, numReplayFailed: 2 })).toBe(0.5);
    expect(coderReward(true, [], { numReplayed: 4, numReplayFailed: 1 })).toBe(0.75);
    expect(coderReward(true, [])).toBeNaN();
  });

  it('detects non-printable characters but allows newlines, tabs and unicode', () => {
    expect(hasNonPrintable('assert f(1) == 2\n\tok é')).toBe(false);
    expect(hasNonPrintable('assert f(\u0001) == 2')).toBe(true);
    expect(hasNonPrintable('bad \ufffd byte')).toBe(true);
  });
});
