// Mistake Book frequency rules, top-k replay, lineage and persistence round-trip.
import { describe, expect, it } from 'vitest';
import { MistakeBook } from './mistake-book';

describe('MistakeBook', () => {
  it('adds broken tests, replays top-k by frequency and removes at zero', () => {
    const b = new MistakeBook();
    b.recordBreak('p1', 'assert f(1) == 2', 0, 1);
    b.recordBreak('p1', 'assert f(2) == 3', 0, 3);
    b.recordBreak('p1', 'assert f(3) == 4', 1, 2);
    b.recordBreak('p2', 'assert g() == 0', 1);
    expect(b.size).toBe(4);
    expect(b.replay('p1', 2)).toEqual(['assert f(2) == 3', 'assert f(3) == 4']);
    expect(b.replay('p3', 2)).toEqual([]);
    // replayed test passed by 2 candidates, failed by 1: 2 + 1 - 2 = 1
    b.recordReplay('p1', 'assert f(3) == 4', 2, 2, 1);
    const e = b.entries().find((x) => x.test === 'assert f(3) == 4')!;
    expect(e.frequency).toBe(1);
    expect(e.lastPassedStep).toBe(2);
    expect(e.timesReplayed).toBe(1);
    expect(e.candidatesBroken).toBe(3);
    expect(e.stepBorn).toBe(1);
    b.recordReplay('p1', 'assert f(3) == 4', 3, 1, 0);
    expect(b.entries().some((x) => x.test === 'assert f(3) == 4')).toBe(false);
    expect(b.size).toBe(3);
  });

  it('a repeated break accumulates frequency instead of duplicating', () => {
    const b = new MistakeBook();
    b.recordBreak('p', 't', 0);
    b.recordBreak('p', 't', 4, 2);
    expect(b.size).toBe(1);
    expect(b.entries()[0]).toMatchObject({ frequency: 3, stepBorn: 0, candidatesBroken: 3 });
  });

  it('keeps a growth history and round-trips through its state', () => {
    const b = new MistakeBook();
    b.recordBreak('p', 'a', 0);
    b.recordBreak('p', 'b', 0);
    b.endStep(0);
    b.replay('p', 1);
    b.recordReplay('p', 'a', 1, 1, 0);
    b.endStep(1);
    const s = b.state();
    expect(s.history).toEqual([
      { step: 0, size: 2, added: 2, removed: 0 },
      { step: 1, size: 1, added: 0, removed: 1 },
    ]);
    const c = MistakeBook.fromState(JSON.parse(JSON.stringify(s)));
    expect(c.entries()).toEqual(b.entries());
    expect(c.state().history).toEqual(s.history);
  });
});
