// The page's readers of run records refuse every repeated, dropped or swapped step (src/testing/corruptions.ts): a
// bundle import (its metrics, metrics.jsonl, eval.jsonl, the Mistake Book history of latest/state.json) and the eval
// reports of an overlay, each naming the file and line.
import { describe, expect, it } from 'vitest';
import type { TrainerState } from '../../rl/trainer-types';
import { RUN_FILES } from '../../run/run-layout';
import { corruptions, evalPoint, history, jsonl, metric } from '../../testing/corruptions';
import { sampleBundle } from '../testing/sample-bundle';
import { parseEvalJsonl } from '../worker/run-files';
import { decodeBundle, encodeBundle } from './bundle';

const STEPS = 5;
const metrics = Array.from({ length: STEPS }, (_, i) => metric(i));

describe('eval reports of an overlay', () => {
  it.each(corruptions([0, 2, 4].map(evalPoint)).filter((c) => !c.what.includes('dropped')))(
    '$what: refused',
    ({ xs }) => {
      expect(() => parseEvalJsonl(jsonl(xs), 'upload.codea1: eval.jsonl')).toThrow(
        /^upload\.codea1: eval\.jsonl line \d+: step/,
      );
    },
  );
});

describe("the page's bundle import", () => {
  const rebuild = (
    patch: (files: Record<string, Uint8Array>, b: ReturnType<typeof sampleBundle>['bundle']) => void,
  ) => {
    const { bundle } = sampleBundle(3, STEPS);
    patch((bundle.snapshot as { files: Record<string, Uint8Array> }).files, bundle);
    return encodeBundle(bundle);
  };
  it('the intact sample bundle decodes', () => {
    expect(decodeBundle(sampleBundle(3, STEPS).bytes).metrics).toHaveLength(STEPS);
  });
  it.each(corruptions(metrics))('$what in its metrics.jsonl, its metrics or its Mistake Book: refused', ({ xs }) => {
    const enc = new TextEncoder();
    expect(() => decodeBundle(rebuild((f) => (f[RUN_FILES.metrics] = enc.encode(jsonl(xs)))))).toThrow(
      /metrics\.jsonl line \d+: step/,
    );
    expect(() => decodeBundle(rebuild((_, b) => (b.metrics = xs)))).toThrow(/metrics\[\d+\]: step/);
    expect(() =>
      decodeBundle(
        rebuild((f) => {
          const state = JSON.parse(new TextDecoder().decode(f['latest/state.json'])) as TrainerState;
          f['latest/state.json'] = enc.encode(
            JSON.stringify({ ...state, book: { ...state.book, history: xs.map((m) => history(m.step)) } }),
          );
        }),
      ),
    ).toThrow(/latest\/state\.json: Mistake Book history\[\d+\]: step/);
  });
});
