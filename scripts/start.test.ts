// `npm start` takes its port from PORT: a taken port or a malformed PORT is one line on stderr (no stack trace) with a
// distinct exit code, checked before the build; a free PORT is the one the lab is served on.
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';

const START = ['scripts/start.mjs'];

function listen(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      resolve({ server, port: typeof a === 'object' && a ? a.port : 0 });
    });
  });
}

function start(env: Record<string, string>, args: string[] = []) {
  return spawnSync(process.execPath, [...START, ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('npm start and PORT', () => {
  it('a taken port: one line naming PORT, exit 1, nothing built', async () => {
    const { server, port } = await listen();
    try {
      const r = start({ PORT: String(port) });
      expect(r.status).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`port ${port}`);
      expect(lines[0]).toMatch(/PORT=\d+ npm start/);
      expect(r.stdout).not.toMatch(/vite|building/i);
    } finally {
      server.close();
    }
  });

  it('a malformed PORT is a usage error (exit 2), one line', () => {
    for (const bad of ['abc', '0', '70000', '80.5']) {
      const r = start({ PORT: bad });
      expect(r.status, bad).toBe(2);
      expect(r.stderr.trim().split('\n'), bad).toHaveLength(1);
      expect(r.stderr).toContain(`'${bad}'`);
    }
  });

  it('serves on the PORT it is given', async () => {
    const { server, port } = await listen();
    // Free the port again: start must bind it itself.
    await new Promise((r) => server.close(r));
    const child = spawn(process.execPath, [...START, '--no-build'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 60_000);
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          // Vite colours its output when CI is set (picocolors), so the URL is read without escape codes.
          if (out.replace(/\x1b\[[0-9;]*m/g, '').includes(`http://127.0.0.1:${port}/`)) {
            clearTimeout(t);
            resolve();
          }
        });
        child.once('exit', (c) => reject(new Error(`exited ${c}: ${out}`)));
      });
      // An HTTP server answers there (404 without a build in dist/: the test skips the build).
      const res = await fetch(`http://127.0.0.1:${port}/`);
      expect([200, 404]).toContain(res.status);
    } finally {
      child.kill();
    }
  });
});
