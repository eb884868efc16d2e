// One way to write a browser spec: the small page-driver interface every shared spec uses, so a spec is written once
// and runs in Chromium (Playwright, Dawn/Tint) and Firefox (puppeteer-core over WebDriver BiDi, wgpu/naga).

export type LabBrowser = 'chromium' | 'firefox';

/** What a spec may do with a page. Functions passed to evaluate/waitFor run in the page: no closures. */
export interface LabPage {
  readonly browser: LabBrowser;
  /** Console messages and uncaught page errors, in order ('pageerror: …' for the latter). */
  readonly logs: string[];
  /** An absolute URL, or a path on the built lab's preview server. */
  goto(url: string): Promise<void>;
  /** The page's current URL. */
  url(): Promise<string>;
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  /** Resolves once fn(arg) returns a truthy value in the page; polls, fails after timeoutMs. */
  waitFor<A = undefined>(fn: (arg: A) => unknown, arg?: A, timeoutMs?: number): Promise<void>;
  /** Resolves once an element matching the CSS selector is attached and visible. */
  waitVisible(selector: string, timeoutMs?: number): Promise<void>;
  click(selector: string): Promise<void>;
  /** textContent of the first match ('' when it has none). */
  text(selector: string): Promise<string>;
  screenshot(path: string): Promise<void>;
}

/** CSS selector of a data-testid, as both drivers take selectors. */
export const byTestId = (id: string): string => `[data-testid="${id}"]`;
