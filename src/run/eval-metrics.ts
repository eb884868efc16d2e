// The evaluation maths as pure functions: the unbiased pass@k estimator, the tester metrics of UnLeakedTestBench
// (pass@k, mut@k, Mul), the white-box mutation score, and CodeT dual-agreement selection.

/** Unbiased pass@k (Chen et al. 2021) from n samples of which c are correct: 1 − C(n−c, k) / C(n, k). */
export function passAtKEstimate(n: number, c: number, k: number): number {
  if (
    !(Number.isInteger(n) && Number.isInteger(c) && Number.isInteger(k)) ||
    n < 1 ||
    k < 1 ||
    k > n ||
    c < 0 ||
    c > n
  ) {
    throw new Error(`passAtKEstimate: need integers 0 <= c <= n and 1 <= k <= n, got n=${n} c=${c} k=${k}`);
  }
  if (n - c < k) return 1;
  // Product form avoids huge binomials: Π_{i=n−c+1..n} (1 − k / i).
  let miss = 1;
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - k / i;
  return 1 - miss;
}

/** UnLeakedTestBench pass@k (%): the share of the tests generated for the reference that are correct on it. */
export function testPassAtK(correct: number, total: number): number {
  return total ? (100 * correct) / total : 0;
}

/**
 * UnLeakedTestBench mut@k (%): the share of mutants killed by the correct tests written for the reference function.
 * killedBy[m] = some test of the reference's suite failed on mutant m.
 */
export function mutAtK(killedBy: readonly boolean[]): number {
  return killedBy.length ? (100 * killedBy.filter(Boolean).length) / killedBy.length : 0;
}

/** Mul = pass@k × mut@k / 100 (both in %). */
export function mul(passAtK: number, mutAtKPct: number): number {
  return (passAtK * mutAtKPct) / 100;
}

/**
 * The lab's white-box mutation score (a fraction, not in the paper): the Tester is shown each mutant, as during
 * training, and the mutant is killed when one of the tests it wrote for it, valid on the ground truth, fails on it.
 */
export function whiteBoxMutationScore(killed: readonly boolean[]): number {
  return killed.length ? killed.filter(Boolean).length / killed.length : 0;
}

/**
 * CodeT dual agreement: sig[i] is candidate i's pass/fail string over the shared tests ('1' = passed). A candidate's
 * score is (#tests it passes) × (#candidates with the same signature); the first best-scoring one is selected.
 */
export function codetSelect(sigs: readonly string[]): number {
  let best = 0;
  let bestScore = -1;
  sigs.forEach((s, i) => {
    const score = [...s].filter((ch) => ch === '1').length * sigs.filter((x) => x === s).length;
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  });
  return best;
}
