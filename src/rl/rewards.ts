// Code-A1 rewards (the published implementation's formulas): tester validity/adversarial/total, coder pass-rate reward.
//
// Departures and choices where the paper is silent:
// - "Valid-input" tests (the call ran on the ground truth) attack the candidate with the ground-truth output as the
//   expected value, so an invalid-answer test can still break a candidate.
// - A coder candidate with no usable tests at all (no valid-input generated tests and no replays) gets NaN; the
//   advantage code treats NaN as "no signal" (advantage 0) instead of inventing a reward.

export interface TesterRolloutOutcome {
  /** Tests extracted (after dedupe, first K). */
  numTests: number;
  numValid: number;
  numInvalid: number;
  /** Valid-input tests (call ran on the ground truth) and how many of them the candidate failed. */
  numValidInput: number;
  numValidInputFailed: number;
  /** The raw tester text contained non-printable characters. */
  nonPrintable: boolean;
}

export interface ReplayOutcome {
  /** Replayed Mistake Book tests run against this candidate, and how many it failed. */
  numReplayed: number;
  numReplayFailed: number;
}

/** v = clip(min(#valid/K, 1 − #invalid/K), 0, 1). */
export function validityReward(numValid: number, numInvalid: number, k: number): number {
  return clip01(Math.min(numValid / k, 1 - numInvalid / k));
}

/**
 * a = (#valid-input tests the candidate fails) / K; with Mistake Book replays a = (gen_fail − replay_fail + 1) / 2,
 * where gen_fail is that fraction and replay_fail the fraction of replayed tests the candidate fails.
 */
export function adversarialReward(o: TesterRolloutOutcome, k: number, replay?: ReplayOutcome): number {
  const genFail = clip01(o.numValidInputFailed / k);
  if (replay && replay.numReplayed > 0) {
    const replayFail = replay.numReplayFailed / replay.numReplayed;
    return (genFail - replayFail + 1) / 2;
  }
  return genFail;
}

export interface TesterReward {
  validity: number;
  adversarial: number;
  reward: number;
}

/** r_T = α·v + (1−α)·a, 0 when the candidate is not valid code, minus a penalty for non-printable output. */
export function testerReward(
  o: TesterRolloutOutcome,
  k: number,
  alpha: number,
  candidateCompiles: boolean,
  nonPrintablePenalty: number,
  replay?: ReplayOutcome,
): TesterReward {
  const validity = validityReward(o.numValid, o.numInvalid, k);
  const adversarial = adversarialReward(o, k, replay);
  let reward = candidateCompiles ? alpha * validity + (1 - alpha) * adversarial : 0;
  if (o.nonPrintable) reward -= nonPrintablePenalty;
  return { validity, adversarial, reward };
}

/**
 * Coder reward: pass rate over the valid-input generated tests aimed at it, averaged over its N tester rollouts
 * (rollouts with no such test are left out), then averaged with the replay pass rate when replays exist.
 */
export function coderReward(
  compiles: boolean,
  rollouts: ReadonlyArray<{ numValidInput: number; numValidInputFailed: number }>,
  replay?: ReplayOutcome,
): number {
  if (!compiles) return 0;
  const rates = rollouts.filter((r) => r.numValidInput > 0).map((r) => 1 - r.numValidInputFailed / r.numValidInput);
  const gen = rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : NaN;
  const rep = replay && replay.numReplayed > 0 ? 1 - replay.numReplayFailed / replay.numReplayed : NaN;
  if (Number.isNaN(gen)) return rep;
  if (Number.isNaN(rep)) return gen;
  return (rep + gen) / 2;
}

/** Golden baseline: pass rate on the problem's own tests. */
export function goldenReward(compiles: boolean, passed: number, total: number): number {
  if (!compiles || total === 0) return 0;
  return passed / total;
}

/** True if the text has characters other than printable ASCII/Unicode, tab and newline. */
export function hasNonPrintable(text: string): boolean {
  return /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufffd]/.test(text);
}

function clip01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
