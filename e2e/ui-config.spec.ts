// The Run panel's hyperparameter rows come from the config table (src/rl/config-fields.ts): one row per UI field with
// the table's label, help and the preset's value, and a value outside the table's range shows the table's error;
// settings with named values (which tests grade the Coder, which instances RL uses) are lists that reach the config.
import { expect, test } from '@playwright/test';
import { FIELD_LIST, PRESETS, PRESET_DESCRIPTIONS, configValue, fieldError } from '../src/rl/config';

const UI_FIELDS = FIELD_LIST.flatMap(([path, f]) =>
  f.ui && (f.type === 'int' || f.type === 'number') ? [{ path, ...f, ...f.ui }] : [],
);
const CHOICE_FIELDS = FIELD_LIST.flatMap(([path, f]) => (f.ui && f.type === 'enum' ? [{ path, ...f, ...f.ui }] : []));

test('hyperparameter rows are the config table’s UI fields, and out-of-range values show its error', async ({
  page,
}) => {
  await page.goto('/#preset=micro&mode=code-a1&seed=1');
  await page.waitForSelector('html[data-restored="true"]');
  await expect(page.getByTestId('run-panel')).toContainText(PRESET_DESCRIPTIONS.micro);
  // Folded away in the presenter view while nothing differs from the preset: open it the way a user would.
  const openRows = async () => {
    if ((await page.getByTestId('hyperparameters').getAttribute('open')) === null)
      await page.locator('summary', { hasText: 'Hyperparameters' }).click();
  };
  await openRows();
  await expect(page.locator('table.hyper tr')).toHaveCount(UI_FIELDS.length + CHOICE_FIELDS.length);
  for (const f of UI_FIELDS) {
    const input = page.getByTestId(`hp-${f.key}`);
    await expect(page.locator(`label[for="hp-input-${f.key}"]`)).toHaveText(f.label);
    await expect(input).toHaveAttribute('placeholder', String(configValue(PRESETS.micro, f.path)));
    await expect(page.locator(`#hp-input-${f.key}-help`)).toHaveText(f.help);
  }
  for (const f of UI_FIELDS) {
    // Just past the upper bound, or the lower bound itself where it is excluded (lr > 0).
    const bad = f.minExclusive ? f.min : f.max + (f.type === 'int' ? 1 : f.max / 2);
    const input = page.getByTestId(`hp-${f.key}`);
    await openRows();
    await input.fill(String(bad));
    const why = `${f.label} ${fieldError(f.path, bad)}`;
    expect(why).toContain(`got ${bad}`);
    await expect(page.getByTestId(`hp-error-${f.key}`)).toHaveText(why);
    await expect(page.getByTestId('start')).toBeDisabled();
    if (f === UI_FIELDS[0])
      await page.getByTestId('run-panel').screenshot({ path: 'test-results/ui-config-error.png' });
    await input.fill('');
    await expect(page.getByTestId(`hp-error-${f.key}`)).toHaveCount(0);
  }
  await expect(page.getByTestId('start')).toBeEnabled();
});

test('settings with named values are lists: the choice lands in the link, survives a reload and reaches the config', async ({
  page,
}) => {
  await page.goto('/#preset=tiny&mode=code-a1&seed=3');
  await page.waitForSelector('html[data-restored="true"]');
  if ((await page.getByTestId('hyperparameters').getAttribute('open')) === null)
    await page.locator('summary', { hasText: 'Hyperparameters' }).click();
  expect(CHOICE_FIELDS.map((f) => f.key).sort()).toEqual(['coderTests', 'goldenTests', 'trainPart']);
  for (const f of CHOICE_FIELDS) {
    const select = page.getByTestId(`hp-${f.key}`);
    await expect(page.locator(`label[for="hp-input-${f.key}"]`)).toHaveText(f.label);
    await expect(page.locator(`#hp-input-${f.key}-help`)).toHaveText(f.help);
    const preset = configValue(PRESETS.tiny, f.path);
    await expect(select.locator('option')).toHaveText([`preset (${preset ?? 'unset'})`, ...f.values]);
    await expect(select).toHaveValue('');
  }
  await page.getByTestId('hp-coderTests').selectOption('shared');
  // The tiny preset's RL uses the half its models never saw ('rl'); 'all' brings back every training instance.
  await page.getByTestId('hp-trainPart').selectOption('all');
  await expect(page).toHaveURL(/coderTests=shared/);
  await expect(page).toHaveURL(/trainPart=all/);
  await page.reload();
  await page.waitForSelector('html[data-restored="true"]');
  await expect(page.getByTestId('hp-coderTests')).toHaveValue('shared');
  await expect(page.getByTestId('hp-trainPart')).toHaveValue('all');
  // The verl export is built from the same config a run starts with: it flags the lab's variant against the release.
  await page.getByTestId('verl-export').locator('summary').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('verl-export-button').click()]);
  expect(download.suggestedFilename()).toMatch(/verl\.zip$/);
  await expect(page.getByTestId('verl-export-notes')).toContainText('reward.coder_tests');
  await page.getByTestId('run-panel').screenshot({ path: 'test-results/ui-config-choices.png' });
  // Back to the preset's value: the override and its part of the link go.
  await page.getByTestId('hp-coderTests').selectOption('');
  await expect(page).not.toHaveURL(/coderTests=/);
});
