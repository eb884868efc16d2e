// Node ESM hook so CLI/bench scripts run under tsx can `import src from '../shaders/x.wgsl?raw'` as Vite does.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
import { readFile } from 'node:fs/promises';
export async function resolve(specifier, context, next) {
  if (specifier.endsWith('?raw')) {
    const r = await next(specifier.slice(0, -4), context);
    return { url: r.url + '?raw', shortCircuit: true };
  }
  return next(specifier, context);
}
export async function load(url, context, next) {
  if (url.endsWith('?raw')) {
    const text = await readFile(new URL(url.slice(0, -4)), 'utf8');
    return { format: 'module', source: 'export default ' + JSON.stringify(text) + ';', shortCircuit: true };
  }
  return next(url, context);
}
`),
);
