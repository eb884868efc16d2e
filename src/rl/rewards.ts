// Code-A1 rewards as the published reward module computes them: tester validity / adversarial / total, coder pass rate.
//
// Counting (see judging.ts for how the counts are made): every assert line the Tester wrote is counted; "valid" tests
// are the distinct statements `assert <call> == <ground-truth output>` whose call ran on the ground truth (also when
// the Tester's own expected value was wrong); "invalid" adds malformed lines, calls that raised, wrong expected values
// and repeats after the fill-in. docs/method.md lists every departure from the published implementation.

export interface TesterRolloutOutcome {
  /** Distinct filled-in statements whose call ran on the ground truth (all of them run against the candidate). */
  numValid: number;
  /** Malformed lines + calls that raised + wrong expected values + repeats after the fill-in. */
  numInvalid: number;
  /** How many of the valid tests the candidate passed (0 when it is not valid code). */
  numPassed: number;
  /** Failures among the first K valid tests (the release scores `gen_failed[:K]`). */
  numFailedFirstK: number;
  /** Share of the output's characters outside Python's `string.printable`. */
  nonPrintableRatio: number;
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
 * a = (failures among the first K valid tests) / K; with Mistake Book replays a = (a_gen − replay_fail + 1) / 2; 0 when
 * the rollout has no valid test, replays or not.
 */
export function adversarialReward(o: TesterRolloutOutcome, k: number, replay?: ReplayOutcome): number {
  if (o.numValid === 0) return 0;
  const genFail = Math.min(o.numFailedFirstK, k) / k;
  if (replay && replay.numReplayed > 0) return (genFail - replay.numReplayFailed / replay.numReplayed + 1) / 2;
  return genFail;
}

export interface TesterReward {
  validity: number;
  adversarial: number;
  reward: number;
}

/** r_T = α·v + (1−α)·a (0 when the candidate is not valid code) − share of non-printable characters. */
export function testerReward(
  o: TesterRolloutOutcome,
  k: number,
  alpha: number,
  candidateCompiles: boolean,
  replay?: ReplayOutcome,
): TesterReward {
  const validity = validityReward(o.numValid, o.numInvalid, k);
  const adversarial = adversarialReward(o, k, replay);
  const base = candidateCompiles ? alpha * validity + (1 - alpha) * adversarial : 0;
  return { validity, adversarial, reward: base - o.nonPrintableRatio };
}

/**
 * The release's `final_pass_rate` for one candidate against one tester rollout: pass rate over all valid tests,
 * averaged with the replay pass rate when both exist, the replay pass rate alone when the rollout has no valid
 * test, 0 when neither exists or the candidate is not valid code.
 */
export function rolloutPassRate(
  compiles: boolean,
  o: Pick<TesterRolloutOutcome, 'numValid' | 'numPassed'>,
  replay?: ReplayOutcome,
): number {
  if (!compiles) return 0;
  const hasRep = !!replay && replay.numReplayed > 0;
  const rep = hasRep ? 1 - replay.numReplayFailed / replay.numReplayed : 0;
  if (o.numValid === 0) return rep;
  const gen = o.numPassed / o.numValid;
  return hasRep ? (rep + gen) / 2 : gen;
}

/** Coder reward: the mean over its N tester rollouts of `rolloutPassRate` (rollouts with no test count as their 0). */
export function coderReward(
  compiles: boolean,
  rollouts: ReadonlyArray<Pick<TesterRolloutOutcome, 'numValid' | 'numPassed'>>,
  replay?: ReplayOutcome,
): number {
  if (!compiles || !rollouts.length) return compiles ? rolloutPassRate(true, { numValid: 0, numPassed: 0 }, replay) : 0;
  return rollouts.reduce((a, o) => a + rolloutPassRate(true, o, replay), 0) / rollouts.length;
}

/** Golden baseline: pass rate on the problem's own tests. */
export function goldenReward(compiles: boolean, passed: number, total: number): number {
  if (!compiles || total === 0) return 0;
  return passed / total;
}

/**
 * Share of characters (code points) outside Python's `string.printable` (ASCII letters, digits, punctuation, space,
 * \t \n \r \x0b \x0c), as the release's `nonprintable_ratio`; 0 for empty text (the release divides by the length).
 */
export function nonPrintableRatio(text: string): number {
  let n = 0;
  let bad = 0;
  for (const ch of text) {
    n++;
    const c = ch.codePointAt(0) ?? 0;
    if (!((c >= 0x20 && c <= 0x7e) || (c >= 0x09 && c <= 0x0d))) bad++;
  }
  return n ? bad / n : 0;
}

function clip01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
