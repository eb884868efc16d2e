// A Hugging Face repo fetched by the browser into the Cache API ({endpoint}/{repo}/resolve/{revision}/{file}), with
// byte progress, so that the second load of the same repo@revision needs no network at all. The model's files come
// back as Blobs read from the cache (disk-backed: the importer slices one tensor at a time).
import { hubUrls } from '../../model/hf/source-hub';
import { INDEX_FILE, SINGLE_FILE } from '../../model/hf/safetensors-stream';

export const HUB_CACHE = 'code-a1-hf-v1';

/** Files the importer and tokenizer read besides the weights; the first two are required. */
const META_FILES = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'generation_config.json',
  'chat_template.jinja',
];
const REQUIRED = new Set(['config.json', 'tokenizer.json']);
/** Written last: the list of files a complete download holds (a cached repo without it is incomplete). */
const MANIFEST = '.code-a1-manifest.json';

export interface HubProgress {
  file: string;
  bytesDone: number;
  /** Bytes of all files to download (known once the weight files' sizes are). */
  bytesTotal: number;
}

export interface HubLoad {
  label: string;
  files: Map<string, Blob>;
  /** True when nothing was fetched: every file came from the cache. */
  fromCache: boolean;
}

export interface HubRequest {
  repo: string;
  revision?: string;
  endpoint?: string;
  onProgress?: (p: HubProgress) => void;
}

class HubError extends Error {}

/** fetch with the reasons a browser fetch fails said in words. */
async function get(url: string, label: string, endpoint: string, method: 'GET' | 'HEAD' = 'GET'): Promise<Response> {
  try {
    return await fetch(url, { method, redirect: 'follow' });
  } catch (e) {
    throw new HubError(
      `${label}: could not reach ${endpoint} (${(e as Error).message}; offline, a wrong hub URL, or a server that does not allow this page's origin)`,
    );
  }
}

function badAnswer(label: string, file: string, res: Response): HubError {
  if (res.status === 401 || res.status === 403)
    return new HubError(
      `${label}/${file}: ${res.status}: the repo is gated or private (this page cannot pass a token)`,
    );
  return new HubError(`${label}/${file}: the hub answered ${res.status} ${res.statusText}`);
}

/** Downloads the repo's model files (or finds them cached) and returns them as Blobs by file name. */
export async function loadHubModel(req: HubRequest): Promise<HubLoad> {
  const endpoint = (req.endpoint || 'https://huggingface.co').replace(/\/+$/, '');
  const { label, url } = hubUrls({ repo: req.repo.trim(), revision: req.revision?.trim() || 'main', endpoint });
  const cache = await caches.open(HUB_CACHE);
  const cachedBlob = async (file: string) => (await cache.match(url(file)))?.blob();

  const manifest = await cachedBlob(MANIFEST);
  if (manifest) {
    const names = JSON.parse(await manifest.text()) as string[];
    const files = new Map<string, Blob>();
    for (const n of names) {
      const b = await cachedBlob(n);
      if (b) files.set(n, b);
    }
    // A file evicted by the browser since: fall through and fetch what is missing.
    if (files.size === names.length) return { label, files, fromCache: true };
  }

  const files = new Map<string, Blob>();
  let bytesDone = 0;
  let bytesTotal = 0;
  /** Fetches one file into the cache (unless cached); undefined when the hub has no such file and it is optional. */
  const fetchFile = async (file: string, required: boolean, sizeHint?: number): Promise<Blob | undefined> => {
    const hit = await cachedBlob(file);
    if (hit) {
      files.set(file, hit);
      return hit;
    }
    const res = await get(url(file), label, endpoint);
    if (res.status === 404) {
      await res.body?.cancel();
      if (!required) return undefined;
      throw new HubError(
        file === 'config.json'
          ? `${label}: not found on ${endpoint} (no config.json: check the repo id and the revision)`
          : `${label}: the repo has no ${file}`,
      );
    }
    if (!res.ok) throw badAnswer(label, file, res);
    // A static server's page-not-found fallback (or a site that is not a hub) answers with HTML.
    if ((res.headers.get('content-type') ?? '').includes('text/html'))
      throw new HubError(
        `${label}/${file}: ${endpoint} answered with an HTML page, not the file (is it a Hugging Face hub?)`,
      );
    // A compressed answer's content-length counts compressed bytes: then only the size the hub reported counts.
    const encoded = !!res.headers.get('content-encoding');
    const expected = encoded ? (sizeHint ?? NaN) : Number(res.headers.get('content-length') ?? sizeHint ?? NaN);
    if (sizeHint === undefined && Number.isFinite(expected)) bytesTotal += expected;
    let got = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctl) {
        got += chunk.byteLength;
        bytesDone += chunk.byteLength;
        req.onProgress?.({ file, bytesDone, bytesTotal: Math.max(bytesTotal, bytesDone) });
        ctl.enqueue(chunk);
      },
    });
    const body = res.body ?? new Response(await res.arrayBuffer()).body!;
    // The stream goes to the cache's disk as it arrives: the file is never held whole in memory.
    try {
      await cache.put(
        url(file),
        new Response(body.pipeThrough(counter), { headers: { 'content-type': 'application/octet-stream' } }),
      );
    } catch (e) {
      // A dropped connection or a full disk: nothing of this file stays cached, the files before it do.
      await cache.delete(url(file));
      throw new HubError(
        `${label}/${file}: the download failed after ${got} bytes (${(e as Error).message}); try again`,
      );
    }
    if (Number.isFinite(expected) && got !== expected) {
      await cache.delete(url(file));
      throw new HubError(`${label}/${file}: the download stopped after ${got} of ${expected} bytes`);
    }
    const blob = (await cachedBlob(file))!;
    files.set(file, blob);
    return blob;
  };

  try {
    for (const f of META_FILES) await fetchFile(f, REQUIRED.has(f));
    // Sharded checkpoints have an index; the importer reads the single file when it exists, so look for it first.
    let weights = [SINGLE_FILE];
    const single = await sizeOf(SINGLE_FILE);
    if (single === undefined) {
      const index = await fetchFile(INDEX_FILE, false);
      if (!index) throw new HubError(`${label}: the repo has neither ${SINGLE_FILE} nor ${INDEX_FILE}`);
      const map = (JSON.parse(await index.text()) as { weight_map?: Record<string, string> }).weight_map ?? {};
      weights = [...new Set(Object.values(map))].sort();
    }
    const sizes = await Promise.all(
      weights.map((w) => (w === SINGLE_FILE && single !== undefined ? single : sizeOf(w))),
    );
    bytesTotal += sizes.reduce<number>((a, n) => a + (n ?? 0), 0);
    for (let i = 0; i < weights.length; i++) await fetchFile(weights[i], true, sizes[i]);
  } catch (e) {
    // Two checks, not one narrowed union: HubError and SyntaxError are structurally alike, so TypeScript could
    // narrow the union's other branch to never depending on file order.
    if (e instanceof SyntaxError) throw new Error(`${label}: bad JSON (${e.message})`);
    if (e instanceof HubError) throw new Error(e.message);
    throw e;
  }
  await cache.put(url(MANIFEST), new Response(JSON.stringify([...files.keys()])));
  return { label, files, fromCache: false };

  /** A weight file's size (cached: its blob's; else HEAD, where the hub's x-linked-size survives LFS redirects). */
  async function sizeOf(file: string): Promise<number | undefined> {
    const hit = await cachedBlob(file);
    if (hit) return hit.size;
    const res = await get(url(file), label, endpoint, 'HEAD');
    if (res.status === 404) return undefined;
    if (!res.ok) throw badAnswer(label, file, res);
    const n = Number(res.headers.get('x-linked-size') ?? res.headers.get('content-length'));
    return Number.isFinite(n) ? n : undefined;
  }
}

/** Forgets every cached repo (the Model panel's "clear the download cache"). */
export async function clearHubCache(): Promise<boolean> {
  return caches.delete(HUB_CACHE);
}
