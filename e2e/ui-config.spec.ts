// The Run panel's hyperparameter rows come from the config table (src/rl/config-fields.ts): one row per UI field with
// the table's label, help and the preset's value, and a value outside the table's range shows the table's error.
import { expect, test } from '@playwright/test';
import { FIELD_LIST, PRESETS, PRESET_DESCRIPTIONS, configValue, fieldError } from '../src/rl/config';

const UI_FIELDS = FIELD_LIST.flatMap(([path, f]) =>
  f.ui && (f.type === 'int' || f.type === 'number') ? [{ path, ...f, ...f.ui }] : [],
);

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
  await expect(page.locator('table.hyper tr')).toHaveCount(UI_FIELDS.length);
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
