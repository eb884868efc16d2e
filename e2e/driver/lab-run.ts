// Driving the built lab's run loop from a shared spec: single steps through the UI, state read from window.__lab.
import { expect } from '@playwright/test';
import type { StepMetrics } from '../../src/rl/metrics';
import { byTestId, type LabPage } from './lab-page';

const STEP_TIMEOUT = 240_000; // one micro step on a software adapter, with room for a loaded CI machine

export const labStep = (lab: LabPage): Promise<number> => lab.evaluate(() => window.__lab!.store.getState().step);
export const labStatus = (lab: LabPage): Promise<string> => lab.evaluate(() => window.__lab!.store.getState().status);
export const labMetrics = (lab: LabPage): Promise<StepMetrics[]> =>
  lab.evaluate(() => window.__lab!.store.getState().series[0].metrics);

/** Where a run stands (status, phase, progress, the last logs): what a step that never landed leaves to go on. */
async function whereItStands(lab: LabPage): Promise<string> {
  const state = await lab
    .evaluate(() => {
      const s = window.__lab!.store.getState();
      const { status, step, currentPhase, progress, activity, loadingDetail, phaseEvents } = s;
      const phasesDone = phaseEvents.length;
      return JSON.stringify({ status, step, currentPhase, progress, activity, loadingDetail, phasesDone });
    })
    .catch((e: unknown) => `(the page did not answer: ${String(e)})`);
  return `${state}; last logs: ${JSON.stringify(lab.logs.slice(-8))}`;
}

/** Clicks "single step" `steps` times, each time waiting for the step to land and the run to pause; the metrics. */
export async function singleSteps(lab: LabPage, steps: number): Promise<StepMetrics[]> {
  for (let i = 1; i <= steps; i++) {
    await lab.click(byTestId('single-step'));
    try {
      await expect.poll(() => labStep(lab), { timeout: STEP_TIMEOUT, intervals: [500] }).toBe(i);
      await expect.poll(() => labStatus(lab), { timeout: 60_000, intervals: [250] }).toBe('paused');
    } catch (e) {
      throw new Error(`step ${i} did not land: ${await whereItStands(lab)}\n${(e as Error).message}`);
    }
  }
  return labMetrics(lab);
}
