// Store slices: run lifecycle, metrics appends (and replaced steps on resume), rollout window, phase tracking.
import { describe, expect, it } from 'vitest';
import { PHASES } from '../../rl/records';
import { sampleMetrics, sampleRollout } from '../testing/sample-run';
import { createLabStore } from './index';
import { ROLLOUT_STEPS_KEPT } from './slices';

describe('lab store', () => {
  it('beginRun resets per-run data and makes the live series first', () => {
    const s = createLabStore();
    const st = s.getState();
    st.setSeries({ id: 'old', label: 'old', mode: 'golden', metrics: sampleMetrics(1, 3, 'golden') });
    st.addRollouts(1, [sampleRollout(1, 1)]);
    st.beginRun('r1', { preset: 'micro', mode: 'code-a1', seed: 3, overrides: {} });
    const a = s.getState();
    expect(a.series.map((x) => x.id)).toEqual(['r1', 'old']);
    expect(a.rolloutSteps).toEqual([]);
    expect(a.step).toBe(0);
    // A second run replaces the first live series but keeps comparison runs.
    a.beginRun('r2', { preset: 'micro', mode: 'golden', seed: 3, overrides: {} });
    expect(s.getState().series.map((x) => x.id)).toEqual(['r2', 'old']);
  });

  it('appends metrics, notifies subscribers, and replaces re-run steps', () => {
    const s = createLabStore();
    s.getState().beginRun('r', { preset: 'micro', mode: 'code-a1', seed: 1, overrides: {} });
    const ms = sampleMetrics(42, 4);
    let calls = 0;
    const unsub = s.subscribe((st, prev) => {
      if (st.series !== prev.series) calls++;
    });
    for (const m of ms) s.getState().appendMetrics('r', m);
    expect(calls).toBe(4);
    expect(s.getState().step).toBe(4);
    // Resume from a checkpoint after 2 steps: step 2 (0-based) is recomputed and replaces the old records from it on.
    const redo = { ...ms[2], 'coder/loss': 99 };
    s.getState().appendMetrics('r', redo);
    const got = s.getState().series[0].metrics;
    expect(got.map((m) => m.step)).toEqual([0, 1, 2]);
    expect(got[2]['coder/loss']).toBe(99);
    unsub();
    // Metrics for an unknown run are ignored.
    s.getState().appendMetrics('nope', ms[0]);
    expect(s.getState().series).toHaveLength(1);
  });

  it('keeps only the last rollout steps', () => {
    const s = createLabStore();
    for (let i = 1; i <= ROLLOUT_STEPS_KEPT + 5; i++) s.getState().addRollouts(i, [sampleRollout(i, i)]);
    const steps = s.getState().rolloutSteps.map((r) => r.step);
    expect(steps).toHaveLength(ROLLOUT_STEPS_KEPT);
    expect(steps[0]).toBe(6);
    expect(steps.at(-1)).toBe(ROLLOUT_STEPS_KEPT + 5);
  });

  it('tracks phases: the next phase to run, and a new step clears the old events', () => {
    const s = createLabStore();
    PHASES.forEach((phase) => s.getState().onPhase({ step: 1, phase, summary: phase }));
    expect(s.getState().phaseEvents).toHaveLength(7);
    expect(s.getState().currentPhase).toBeNull();
    s.getState().onPhase({ step: 2, phase: 'coder-rollout', summary: 'x' });
    expect(s.getState().phaseEvents).toHaveLength(1);
    expect(s.getState().currentPhase).toBe('tester-rollout');
  });

  it('keeps the picked model files per role for the next new run, across a reset, until forgotten', () => {
    const s = createLabStore();
    const coder = { 'model.safetensors': new Uint8Array([1, 2]), 'config.json': new Uint8Array([3]) };
    const tester = { 'model.safetensors': new Uint8Array([4]) };
    s.getState().setUserModel('coder', coder);
    s.getState().setUserModel('tester', tester);
    s.getState().clearRun();
    expect(s.getState().userModels).toEqual({ coder, tester });
    // Picking the coder's files again replaces only the coder's.
    const coder2 = { 'model.safetensors': new Uint8Array([5]) };
    s.getState().setUserModel('coder', coder2);
    expect(s.getState().userModels).toEqual({ coder: coder2, tester });
    s.getState().forgetUserModels();
    expect(s.getState().userModels).toEqual({});
  });
});
