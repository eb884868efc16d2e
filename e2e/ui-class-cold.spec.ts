// A cold Start as a class sees it (issue 49): the page moves at once (the shaders compiled and the Python sandbox's
// workers booted so far, counted up in the status line), and the Coder's text streams in while the sandbox is still
// loading: loading the models, compiling the sampling kernels and booting Pyodide overlap instead of running in turn.
// Pyodide's files are held back by the test until the Coder has streamed text, so the overlap is checked, not timed.
import { expect, test } from '@playwright/test';

interface Rec {
  rec: { lines: { at: number; text: string }[]; coderAt?: number; start: number };
}

test('cold start: loading counts move at once, the Coder streams while the sandbox loads', async ({ page }) => {
  test.setTimeout(300_000);
  // Pyodide's wasm, its JS and the standard library, wherever the build put them (hashed names).
  let held = 0;
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.context().route(/pyodide\.asm|python_stdlib/, async (route) => {
    held++;
    await released;
    await route.continue();
  });
  await page.goto('/#preset=micro&mode=code-a1&seed=3');
  await page.waitForSelector('html[data-restored="true"]');
  // Recorded in the page (the status line changes several times a second): every distinct activity text with its
  // time after Start, and when the Coder's text first showed.
  await page.evaluate(() => {
    const w = window as unknown as Rec;
    w.rec = { lines: [], start: performance.now() };
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="run-activity"]')?.textContent ?? '';
      if (text && w.rec.lines.at(-1)?.text !== text) w.rec.lines.push({ at: performance.now() - w.rec.start, text });
      const coder = document.querySelector('[data-testid="stream-coder"] pre')?.textContent?.trim();
      if (coder && w.rec.coderAt === undefined) w.rec.coderAt = performance.now() - w.rec.start;
    }).observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
    w.rec.start = performance.now();
  });
  await page.getByTestId('start').click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as Rec).rec.coderAt), { timeout: 240_000 })
    .toBeDefined();
  const beforeRelease = await page.evaluate(() => (window as unknown as Rec).rec);
  // The Coder wrote while no sandbox worker could have booted (its Pyodide files had not been served).
  expect(held, 'Pyodide requests held back').toBeGreaterThan(0);
  const sandboxCounts = beforeRelease.lines
    .map((l) => /Python sandbox (\d+) of (\d+)/.exec(l.text))
    .filter((m): m is RegExpExecArray => m !== null);
  expect(sandboxCounts.length).toBeGreaterThan(0);
  for (const m of sandboxCounts) expect(Number(m[1]), m[0]).toBeLessThan(Number(m[2]));
  release();

  // The shader count rose while loading (the page moved before any text), then the loading line went away.
  await expect(page.getByTestId('run-step')).toHaveText(/[1-9]/, { timeout: 240_000 });
  await page.getByTestId('pause').click();
  const { lines, coderAt } = await page.evaluate(() => (window as unknown as Rec).rec);
  const shaders = lines
    .map((l) => ({ at: l.at, m: /shaders (\d+) of (\d+)/.exec(l.text) }))
    .filter((x) => x.m !== null)
    .map((x) => ({ at: x.at, done: Number(x.m![1]), total: Number(x.m![2]) }));
  console.log(
    `first loading count at ${shaders[0]?.at.toFixed(0)} ms; shader counts ${shaders.map((s) => `${s.done}/${s.total}`).join(' ')}; Coder text at ${coderAt?.toFixed(0)} ms`,
  );
  expect(shaders.length).toBeGreaterThan(1);
  expect(new Set(shaders.map((s) => s.done)).size, 'the shader count moved').toBeGreaterThan(1);
  expect(shaders[0].at).toBeLessThan(coderAt!);
  expect(lines.at(-1)!.text).not.toContain('still loading');
});
