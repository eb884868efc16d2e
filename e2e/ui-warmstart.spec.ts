// The Model panel's other shipped tiny warm-start (the full-corpus models; the preset's own are the SFT-half
// warm-start): one click loads its Coder and Tester for the next run, a file the site lacks is refused with its path
// and replaces nothing, and "Use the preset's models" goes back; the longer-trained SFT-half Coder is offered too.
import { expect, test } from '@playwright/test';

test('the tiny preset offers the shipped full-corpus warm-start; a missing file is refused and replaces nothing', async ({
  page,
}) => {
  await page.goto('/#preset=tiny&mode=code-a1&seed=1');
  await page.waitForSelector('html[data-restored="true"]');
  await page.getByTestId('tab-model').click();
  const coder = page.getByTestId('model-in-use-coder');
  const tester = page.getByTestId('model-in-use-tester');
  await expect(coder).toContainText('shipped public/models/tiny-sft-half/coder');

  // The site without the Tester's config: the error names the file, the next run keeps the preset's models.
  const missing = '**/models/tiny/tester/config.json';
  await page.route(missing, (r) => r.fulfill({ status: 404, body: 'not found' }));
  await page.getByTestId('model-use-warmstart-full-corpus').click();
  await expect(page.getByTestId('model-error')).toContainText('models/tiny/tester/config.json is not there');
  await expect(coder).toContainText('shipped public/models/tiny-sft-half/coder');
  await expect(tester).toContainText('shipped public/models/tiny-sft-half/tester');
  await page.unroute(missing);

  await page.getByTestId('model-use-warmstart-full-corpus').click();
  await expect(coder).toHaveText('shipped public/models/tiny/coder (model.safetensors, config.json, tokenizer.json)');
  await expect(tester).toHaveText('shipped public/models/tiny/tester (model.safetensors, config.json, tokenizer.json)');
  await expect(page.getByTestId('model-error')).toHaveCount(0);
  await expect(page.getByTestId('model')).toContainText('Warm-started on every training instance');
  // Both roles hold the shipped files for the next run (a tiny model's weights are over 3 MB).
  const sizes = await page.evaluate(() => {
    const m = window.__lab!.store.getState().userModels;
    return [m.coder, m.tester].map((f) => Object.values(f ?? {}).map((b) => b.byteLength));
  });
  expect(sizes[0][0]).toBeGreaterThan(3_000_000);
  expect(sizes[1][0]).toBe(sizes[0][0]);
  await page.screenshot({ path: 'test-results/ui-warmstart.png', fullPage: true });

  await page.getByTestId('model-use-shipped').click();
  await expect(coder).toContainText('shipped public/models/tiny-sft-half/coder');
});

test("the tiny preset offers the longer-trained SFT-half Coder with the preset's Tester", async ({ page }) => {
  await page.goto('/#preset=tiny&mode=code-a1&seed=1');
  await page.waitForSelector('html[data-restored="true"]');
  await page.getByTestId('tab-model').click();
  const coder = page.getByTestId('model-in-use-coder');
  const tester = page.getByTestId('model-in-use-tester');
  await page.getByTestId('model-use-warmstart-sft-half-plus300').click();
  await expect(coder).toHaveText(
    'shipped public/models/tiny-sft-half-plus300/coder (model.safetensors, config.json, tokenizer.json)',
  );
  await expect(tester).toHaveText(
    'shipped public/models/tiny-sft-half/tester (model.safetensors, config.json, tokenizer.json)',
  );
  await expect(page.getByTestId('model-error')).toHaveCount(0);
  await expect(page.getByTestId('model')).toContainText('300 more SFT steps');
  // The Coder's weights differ from the preset's own Coder; the Tester's are the preset's Tester's.
  const same = await page.evaluate(async () => {
    const m = window.__lab!.store.getState().userModels;
    const preset = async (path: string) => new Uint8Array(await (await fetch(path)).arrayBuffer());
    const eq = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
    const weights = (f: Record<string, Uint8Array> | undefined) =>
      Object.entries(f ?? {}).find(([n]) => n.endsWith('.safetensors'))![1];
    return {
      coder: eq(weights(m.coder), await preset('models/tiny-sft-half/coder/model.safetensors')),
      tester: eq(weights(m.tester), await preset('models/tiny-sft-half/tester/model.safetensors')),
    };
  });
  expect(same).toEqual({ coder: false, tester: true });
  await page.getByTestId('model-use-shipped').click();
  await expect(coder).toContainText('shipped public/models/tiny-sft-half/coder');
});

test('presets without a shipped warm-start do not offer one', async ({ page }) => {
  await page.goto('/#preset=micro&mode=code-a1&seed=1');
  await page.waitForSelector('html[data-restored="true"]');
  await page.getByTestId('tab-model').click();
  await expect(page.getByTestId('model-in-use-coder')).toContainText('shipped public/models/micro/coder');
  await expect(page.getByTestId(/^model-use-warmstart/)).toHaveCount(0);
});
