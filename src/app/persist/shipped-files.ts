// The files of a checkpoint shipped under public/ (e.g. `models/tiny/coder`), fetched from the lab's own site; used by
// the training worker (the preset's models) and by the Model panel (the other shipped warm-starts).
import { CONFIG_FILE, TOKENIZER_FILE, WEIGHTS_FILE } from '../../model/checkpoint';
import type { PolicyFiles } from '../../rl/policy';

/** Weights, config and tokenizer, keyed `path/name`; a file the site does not have is a clear error. */
export async function fetchShippedFiles(path: string, howToMake: string): Promise<PolicyFiles> {
  const dir = path.replace(/\/$/, '');
  const base = new URL(import.meta.env.BASE_URL, self.location.origin);
  const files: PolicyFiles = {};
  for (const name of [WEIGHTS_FILE, CONFIG_FILE, TOKENIZER_FILE]) {
    const url = new URL(`${dir}/${name}`, base);
    const res = await fetch(url);
    // A static server may answer a missing file with the app's index.html (SPA fallback): that is a miss too.
    const html = (res.headers.get('content-type') ?? '').includes('text/html');
    if (!res.ok || html)
      throw new Error(
        `shipped checkpoint ${path}: ${url.pathname} is not there (${res.ok ? 'got an HTML page' : res.status}); ${howToMake}`,
      );
    files[`${dir}/${name}`] = new Uint8Array(await res.arrayBuffer());
  }
  return files;
}
