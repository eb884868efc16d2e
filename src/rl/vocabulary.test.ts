// One vocabulary: the counts the trainer reports while a step runs (from its judging structures) are the counts every
// view later derives from the step's records, in the same words; breaks are what the Mistake Book adds.
import { describe, expect, it } from 'vitest';
import { freshSeed, mulberry32 } from '../testing/random';
import { countTests, judgeRollout, mistakeBookInputs, type JudgedCandidate } from './judging';
import { buildRolloutRecords } from './trainer-records';
import { countedTotals, judgedText } from './trainer-counts';
import { executionText, stepCounts, validationText } from './vocabulary';
import { MistakeBook } from './mistake-book';
import { presetConfig } from './config';
import type { ValidatedTest } from '../sandbox/types';
import type { Problem } from '../tasks/types';

describe('one vocabulary', () => {
  it('trainer phase texts = texts from the records; breaks = the Mistake Book’s +1s', () => {
    const seed = freshSeed();
    const rng = mulberry32(seed);
    for (let round = 0; round < 40; round++) {
      const cfg = presetConfig('micro', {
        rollout: { num_generations: 2 + Math.floor(rng() * 3), tester_generations: 1 + Math.floor(rng() * 3) },
      });
      const M = cfg.rollout.num_generations;
      const N = cfg.rollout.tester_generations;
      const K = cfg.rollout.tests_per_group;
      const P = 1 + Math.floor(rng() * 3);
      const problems = Array.from(
        { length: P },
        (_, i) => ({ id: `p${i}`, prompt: 'def f(x):', entryPoint: 'f' }) as Problem,
      );
      // Tests over a few calls, so repeats after the fill-in happen; calls raise, expected values are wrong at random.
      const test = (): ValidatedTest => {
        const x = Math.floor(rng() * 4);
        const callOk = rng() < 0.75;
        const valid = callOk && rng() < 0.6;
        return {
          text: `assert f(${x}) == ${valid ? x : x + 1}`,
          call: `f(${x})`,
          expected: String(x),
          callOk,
          valid,
          ...(callOk ? { gtOutput: String(x) } : {}),
        };
      };
      const validated = Array.from({ length: P * M * N }, () =>
        countTests(
          'raw',
          Array.from({ length: Math.floor(rng() * 6) }, test),
          Array.from({ length: Math.floor(rng() * 2) }, () => ({ line: 'assert (', reason: 'syntax' })),
        ),
      );
      const replays = problems.map(() => (rng() < 0.5 ? ['assert f(9) == 9'] : []));
      const judged: JudgedCandidate[] = Array.from({ length: P * M }, (_, ci) => ({
        code: 'def f(x): return x',
        compiles: rng() < 0.8,
        rollouts: validated.slice(ci * N, (ci + 1) * N).map((r) =>
          judgeRollout(
            r,
            r.valid.map(() => rng() < 0.5),
            K,
          ),
        ),
        replay: { numReplayed: replays[Math.floor(ci / M)].length, numReplayFailed: 0 },
        replayPassed: replays[Math.floor(ci / M)].map(() => rng() < 0.5),
        hiddenPassRate: rng(),
      }));
      const zeros = (n: number) => Array.from({ length: n }, () => 0);
      const records = buildRolloutRecords(
        0,
        cfg,
        problems,
        judged,
        replays,
        zeros(P * M),
        { advantages: problems.map(() => zeros(M)) },
        judged.map(() => Array.from({ length: N }, () => ({ validity: 0, adversarial: 0, reward: 0 }))),
        { advantages: judged.map(() => zeros(N)) },
      );
      const c = stepCounts(records);
      const why = `seed ${seed} round ${round}`;
      expect(validationText(c), why).toBe(validationText(countedTotals(validated)));
      expect(executionText(c), why).toBe(judgedText(judged, replays, false));
      // The release's #invalid and #valid, summed over rollouts.
      expect(c.invalid, why).toBe(validated.reduce((a, r) => a + r.numInvalid, 0));
      expect(c.valid, why).toBe(validated.reduce((a, r) => a + r.valid.length, 0));
      // Each break is one +1 in the book: frequencies added this step sum to the breaks.
      const book = new MistakeBook();
      let plusOnes = 0;
      problems.forEach((p, pi) => {
        const { newFailing } = mistakeBookInputs(judged.slice(pi * M, (pi + 1) * M), []);
        plusOnes += newFailing.length;
        book.update(p.id, 0, newFailing, []);
      });
      expect(c.breaks, why).toBe(plusOnes);
      expect(
        book.entries().reduce((a, e) => a + e.frequency, 0),
        why,
      ).toBe(c.breaks);
    }
  });
});
