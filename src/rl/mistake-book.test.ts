// Mistake Book rules as the published MistakeBook.update: passed replays −1 first (removed at 0), then +1 per break;
// top-k replay, lineage and persistence round-trip.
import { describe, expect, it } from 'vitest';
import { MistakeBook } from './mistake-book';
import { freshSeed, mulberry32 } from '../testing/random';

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

  it('teaching fields (candidate broken, got, replay steps) change no count; a book saved without them loads', () => {
    const seed = freshSeed();
    const rng = mulberry32(seed);
    const plain = new MistakeBook();
    const taught = new MistakeBook();
    for (let step = 0; step < 30; step++) {
      for (const p of ['p', 'q']) {
        const replayedPlain = plain.replay(p, 2);
        expect(taught.replay(p, 2, step)).toEqual(replayedPlain);
        const failing = Array.from({ length: Math.floor(rng() * 4) }, () => `assert f(${Math.floor(rng() * 5)}) == 0`);
        const passed = replayedPlain.filter(() => rng() < 0.6);
        plain.update(p, step, failing, passed);
        taught.update(
          p,
          step,
          failing,
          passed,
          failing.map((t) => ({ candidate: `def f(x): return ${t.length}`, got: 'got 1, expected 0' })),
        );
      }
      plain.endStep(step);
      taught.endStep(step);
    }
    const strip = (b: MistakeBook) => b.entries().map(({ brokeCandidate: _c, got: _g, replayedAt: _r, ...e }) => e);
    expect(strip(taught), `seed ${seed}`).toEqual(plain.entries());
    for (const e of taught.entries()) {
      expect(e.brokeCandidate).toMatch(/^def f/);
      expect(e.got).toBe('got 1, expected 0');
      expect((e.replayedAt ?? []).length).toBe(Math.min(10, e.timesReplayed));
      expect(e.replayedAt ?? []).toEqual([...(e.replayedAt ?? [])].sort((a, b) => a - b));
    }
    // An old run's state (no teaching fields) loads and replays as before.
    const old = MistakeBook.fromState(JSON.parse(JSON.stringify(plain.state())));
    expect(old.entries()).toEqual(plain.entries());
  });
});
