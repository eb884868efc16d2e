// The Hugging Face hub (or any server with its URL layout, {endpoint}/{repo}/resolve/{revision}/{path}) as an
// HfSource: sizes by HEAD, bytes by HTTP range requests, so tensors stream one at a time as from a disk.
import type { HfSource } from './source';

export interface HubOptions {
  /** e.g. "Qwen/Qwen2.5-Coder-0.5B-Instruct". */
  repo: string;
  /** Branch, tag or commit; default "main". */
  revision?: string;
  /** Default https://huggingface.co. */
  endpoint?: string;
  /** Access token for gated or private repos (sent as a Bearer token). */
  token?: string;
  /** The fetch to use (tests, proxies); default the global one. */
  fetch?: typeof fetch;
}

const REPO_RE = /^[A-Za-z0-9][\w.-]*(\/[A-Za-z0-9][\w.-]*)?$/;

export const DEFAULT_HUB = 'https://huggingface.co';

/** A file's URL in the hub's layout; the repo id, revision and path are checked (no '..', no empty parts). */
export function hubUrls(opts: Pick<HubOptions, 'repo' | 'revision' | 'endpoint'>): {
  label: string;
  url: (path: string) => string;
} {
  if (!REPO_RE.test(opts.repo)) throw new Error(`hub: '${opts.repo}' is not a repo id (owner/name)`);
  const revision = opts.revision ?? 'main';
  if (!revision || revision.includes('..')) throw new Error(`hub: bad revision '${revision}'`);
  const endpoint = (opts.endpoint ?? DEFAULT_HUB).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(endpoint)) throw new Error(`hub: the endpoint '${endpoint}' is not an http(s) URL`);
  return {
    label: `${opts.repo}@${revision}`,
    url(path) {
      if (path.split('/').some((p) => p === '..' || p === '')) throw new Error(`hub: bad path '${path}'`);
      return `${endpoint}/${opts.repo}/resolve/${encodeURIComponent(revision)}/${path.split('/').map(encodeURIComponent).join('/')}`;
    },
  };
}

export function hubSource(opts: HubOptions): HfSource {
  const { label, url } = hubUrls(opts);
  const doFetch = opts.fetch ?? fetch;
  const headers: Record<string, string> = opts.token ? { authorization: `Bearer ${opts.token}` } : {};
  const sizes = new Map<string, number | undefined>();
  return {
    label,
    async size(path) {
      if (sizes.has(path)) return sizes.get(path);
      const res = await doFetch(url(path), { method: 'HEAD', headers, redirect: 'follow' });
      let size: number | undefined;
      if (res.status === 404) size = undefined;
      else if (!res.ok)
        throw new Error(
          `${label}/${path}: HEAD answered ${res.status} ${res.statusText}${res.status === 401 || res.status === 403 ? ' (gated or private: pass a token)' : ''}`,
        );
      else {
        // The hub answers LFS files with a redirect; x-linked-size is the file's size either way.
        const n = Number(res.headers.get('x-linked-size') ?? res.headers.get('content-length'));
        if (!Number.isFinite(n) || n < 0) throw new Error(`${label}/${path}: the server did not say the file's size`);
        size = n;
      }
      sizes.set(path, size);
      return size;
    },
    async read(path, offset, length) {
      if (length === 0) return new Uint8Array(0);
      const res = await doFetch(url(path), {
        headers: { ...headers, range: `bytes=${offset}-${offset + length - 1}` },
        redirect: 'follow',
      });
      if (res.status === 404) throw new Error(`${label}/${path}: not found`);
      if (res.status !== 206) {
        await res.body?.cancel();
        throw new Error(
          `${label}/${path}: asked for bytes ${offset}..${offset + length}, the server answered ${res.status} (range requests are required, so that no file is held whole)`,
        );
      }
      const data = new Uint8Array(await res.arrayBuffer());
      if (data.byteLength !== length)
        throw new Error(`${label}/${path}: asked for ${length} bytes at ${offset}, got ${data.byteLength}`);
      return data;
    },
  };
}
