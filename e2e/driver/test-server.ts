// A small HTTP server for the test pages (Vite bundles of e2e/pages/*) beside the built lab: static folders and
// handler routes, every response cross-origin isolated (SharedArrayBuffer for Pyodide), so both browsers load the
// same URLs and no spec needs a browser's request interception.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.zip': 'application/zip',
  '.json': 'application/json',
  '.whl': 'application/octet-stream',
};

export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** A handler answers true once it has responded; false lets the next route try. */
export type Handler = (req: IncomingMessage, res: ServerResponse, path: string) => boolean;

export type Route =
  | { prefix: string; dir: string; index?: string }
  | { prefix: string; html: string }
  | { prefix: string; handler: Handler };

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

function serveFile(res: ServerResponse, file: string): boolean {
  let body: Buffer;
  try {
    if (!statSync(file).isFile()) return false;
    body = readFileSync(file);
  } catch {
    return false;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  res.end(body);
  return true;
}

export async function startTestServer(routes: Route[]): Promise<TestServer> {
  const server = createServer((req, res) => {
    for (const [k, v] of Object.entries(ISOLATION_HEADERS)) res.setHeader(k, v);
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    for (const r of routes) {
      if (!path.startsWith(r.prefix)) continue;
      const rest = path.slice(r.prefix.length);
      if ('html' in r) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(r.html);
        return;
      }
      if ('handler' in r) {
        if (r.handler(req, res, rest)) return;
        continue;
      }
      const file = normalize(join(r.dir, rest || r.index || 'index.html'));
      if (file.startsWith(normalize(r.dir)) && serveFile(res, file)) return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** A page that loads one bundled module (bundlePage's output) at `${prefix}index.html`. */
export function modulePage(prefix: string, title: string, dir: string, script: string): Route[] {
  return [
    {
      prefix: `${prefix}index.html`,
      html: `<!doctype html><title>${title}</title><script type="module" src="${script}"></script>`,
    },
    { prefix, dir },
  ];
}
