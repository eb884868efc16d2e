// Hub source against a local server with the hub's URL layout (no network): the same weights as from disk, every
// byte fetched about once, and clear errors for a missing revision, a missing token and a server without ranges.
import { createServer, type Server } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ROOT, fixtureSource } from './fixtures-node';
import { importHfModel } from './import';
import { hubSource, hubUrls } from './source-hub';
import { loadHfTokenizer } from './tokenizer';

const REPO = 'lab/qwen2-untied-mqa-bf16';
let server: Server;
let endpoint = '';
let bytesServed = 0;
let ranges = true;
let needToken = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    const m = /^\/lab\/([\w.-]+)\/resolve\/main\/([\w.-]+)$/.exec(req.url ?? '');
    const file = m && `${FIXTURE_ROOT}${m[1]}/${decodeURIComponent(m[2])}`;
    if (needToken && req.headers.authorization !== 'Bearer secret') return void res.writeHead(401).end();
    let size: number;
    try {
      size = file ? statSync(file).size : -1;
    } catch {
      size = -1;
    }
    if (!file || size < 0) return void res.writeHead(404).end();
    if (req.method === 'HEAD') return void res.writeHead(200, { 'content-length': size }).end();
    const data = readFileSync(file);
    const r = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (r && ranges) {
      const part = data.subarray(Number(r[1]), Number(r[2]) + 1);
      bytesServed += part.length;
      return void res
        .writeHead(206, { 'content-range': `bytes ${r[1]}-${r[2]}/${size}`, 'content-length': part.length })
        .end(part);
    }
    bytesServed += data.length;
    res.writeHead(200, { 'content-length': size }).end(data);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

describe('hub source (local server with the hub URL layout)', () => {
  it('imports the same weights as from disk, fetching each byte about once, and loads the tokenizer', async () => {
    bytesServed = 0;
    const fromHub = await importHfModel(hubSource({ repo: REPO, endpoint }));
    const fromDisk = await importHfModel(fixtureSource('qwen2-untied-mqa-bf16'));
    expect(fromHub.params).toEqual(fromDisk.params);
    const dir = `${FIXTURE_ROOT}qwen2-untied-mqa-bf16/`;
    const files = [
      'config.json',
      'model.safetensors.index.json',
      ...Object.values(
        JSON.parse(readFileSync(dir + 'model.safetensors.index.json', 'utf8')).weight_map as Record<string, string>,
      ),
    ];
    const total = [...new Set(files)].reduce((a, f) => a + statSync(dir + f).size, 0);
    expect(bytesServed).toBeLessThanOrEqual(total);
    expect(bytesServed).toBeGreaterThan(0.9 * total);
    const tok = await loadHfTokenizer(hubSource({ repo: REPO, endpoint }));
    expect(tok.applyChatTemplate([{ role: 'user', content: 'hi' }], { addGenerationPrompt: true })).toContain(
      '<|im_start|>assistant\n',
    );
  });

  it('a missing repo or revision, a missing token and a server without range support are named', async () => {
    await expect(importHfModel(hubSource({ repo: 'lab/nope', endpoint }))).rejects.toThrow(
      /lab\/nope@main: no config\.json/,
    );
    await expect(importHfModel(hubSource({ repo: REPO, revision: 'v2', endpoint }))).rejects.toThrow(
      /@v2: no config\.json/,
    );
    needToken = true;
    try {
      await expect(importHfModel(hubSource({ repo: REPO, endpoint }))).rejects.toThrow(
        /HEAD answered 401 .*pass a token/,
      );
      await expect(importHfModel(hubSource({ repo: REPO, endpoint, token: 'secret' }))).resolves.toBeDefined();
    } finally {
      needToken = false;
    }
    ranges = false;
    try {
      await expect(importHfModel(hubSource({ repo: REPO, endpoint }))).rejects.toThrow(
        /the server answered 200 \(range requests are required/,
      );
    } finally {
      ranges = true;
    }
    expect(() => hubSource({ repo: '../etc', endpoint })).toThrow(/not a repo id/);
    expect(() => hubSource({ repo: REPO, endpoint: 'file:///etc' })).toThrow(
      /'file:\/\/\/etc' is not an http\(s\) URL/,
    );
    expect(hubUrls({ repo: REPO, revision: 'refs/pr/1', endpoint: endpoint + '/' }).url('a b/c.json')).toBe(
      `${endpoint}/${REPO}/resolve/refs%2Fpr%2F1/a%20b/c.json`,
    );
  });
});
