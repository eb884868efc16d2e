// Browser entry of the sandbox: `createBrowserSandbox(opts?)` (the platform code lives in pool-browser.ts).
export { createBrowserSandbox } from './pool-browser';
export type { SandboxPool, PoolOptions } from './pool';
