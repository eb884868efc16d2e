// Mistake Book rules as the published MistakeBook.update: passed replays −1 first (removed at 0), then +1 per break;
// top-k replay, lineage and persistence round-trip.
import { describe, expect, it } from 'vitest';
import { MistakeBook } from './mistake-book';

describe('MistakeBook', () => {
  it('adds broken tests, replays top-k by frequency and removes at zero', () => {
    const b = new MistakeBook();
    b.update('p1', 0, ['assert f(1) == 2', 'assert f(2) == 3', 'assert f(2) == 3', 'assert f(2) == 3'], []);
    b.update('p1', 1, ['assert f(3) == 4', 'assert f(3) == 4'], []);
    b.update('p2', 1, ['assert g() == 0'], []);
    expect(b.size).toBe(4);
    expect(b.replay('p1', 2)).toEqual(['assert f(2) == 3', 'assert f(3) == 4']);
    expect(b.replay('p3', 2)).toEqual([]);
    // Passed by 2 valid candidates: 2 − 2 = 0, removed before the new breaks are added.
    b.update('p1', 2, [], ['assert f(3) == 4', 'assert f(3) == 4']);
    expect(b.entries().some((x) => x.test === 'assert f(3) == 4')).toBe(false);
    expect(b.size).toBe(3);
    // A failing replay gains nothing by itself (the release only decrements on passes).
    b.update('p1', 3, [], ['assert f(2) == 3']);
    const e = b.entries().find((x) => x.test === 'assert f(2) == 3')!;
    expect(e.frequency).toBe(2);
    expect(e.lastPassedStep).toBe(3);
    expect(e.timesReplayed).toBe(1);
    expect(e.candidatesBroken).toBe(3);
    expect(e.stepBorn).toBe(0);
  });

  it('decrements before it adds: a test passed to 0 and broken again in the same step comes back new', () => {
    const b = new MistakeBook();
    b.update('p', 0, ['t'], []);
    b.update('p', 4, ['t'], ['t']);
    const [e] = b.entries();
    expect(e).toMatchObject({ test: 't', frequency: 1, stepBorn: 4, candidatesBroken: 1 });
    b.endStep(4);
    // The other order (+1 then −1) would have kept the old entry at frequency 1, born at step 0.
    expect(b.state().history[0]).toMatchObject({ added: 2, removed: 1, size: 1 });
  });

  it('round-trips through its state', () => {
    const b = new MistakeBook();
    b.update('p', 0, ['a', 'b', 'a'], []);
    b.endStep(0);
    b.replay('p', 1);
    b.update('p', 1, [], ['a']);
    b.endStep(1);
    const c = MistakeBook.fromState(JSON.parse(JSON.stringify(b.state())));
    expect(c.entries()).toEqual(b.entries());
    expect(c.state().history).toEqual(b.state().history);
    expect(c.replay('p', 8)).toEqual(['a', 'b']);
  });
});
