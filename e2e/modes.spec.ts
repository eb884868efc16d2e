// One micro step of every training mode in the built lab (real models, the sandbox in the Worker), in each browser:
// the step lands, its metrics are finite and carry the mode, and the page logged no error.
import { byTestId, expect, test } from './driver/test';
import { MODES } from '../src/app/config/run-config';
import { encodeConfigHash } from '../src/app/config/url-codec';
import { singleSteps } from './driver/lab-run';

for (const mode of MODES) {
  test(`${mode}: one micro step trains`, async ({ lab }) => {
    test.setTimeout(300_000);
    await lab.goto('/' + encodeConfigHash({ preset: 'micro', mode, seed: 2, overrides: {} }));
    await lab.waitVisible('html[data-restored="true"]');
    await lab.waitVisible(byTestId('adapter'));
    const [m] = await singleSteps(lab, 1);
    expect(m.mode).toBe(mode);
    expect(Number.isFinite(m['coder/reward_mean'])).toBe(true);
    expect(Number.isFinite(m['coder/loss'])).toBe(true);
    expect(lab.logs.filter((l) => /pageerror|uncaught|\[gpu\]/i.test(l))).toEqual([]);
  });
}
