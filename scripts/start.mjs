// `npm start`: install what is missing, build, serve the lab on 127.0.0.1:$PORT (default 5173) with COOP/COEP on.
// The port is checked before the (slow) build, and a taken or malformed PORT is a one-line error, never a stack trace.
// `--no-build` serves the last build (dist/) as it is.
import { createServer } from 'node:net';
import { execFileSync } from 'node:child_process';

const HOST = '127.0.0.1';
const DEFAULT_PORT = 5173;

function fail(message, code) {
  console.error(`npm start: ${message}`);
  process.exit(code);
}

function readPort() {
  const raw = process.env.PORT;
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(port >= 1 && port <= 65535)) fail(`PORT must be a port number from 1 to 65535, got '${raw}'`, 2);
  return port;
}

/** Resolves when `port` can be listened on, rejects with the listen error (EADDRINUSE, EACCES) otherwise. */
function probe(port) {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen({ port, host: HOST, exclusive: true }, () => s.close(() => resolve()));
  });
}

function portError(port, e) {
  const next = port < 65535 ? port + 1 : port - 1;
  if (e?.code === 'EADDRINUSE')
    return `port ${port} on ${HOST} is already in use; choose another with PORT, e.g. PORT=${next} npm start`;
  if (e?.code === 'EACCES')
    return `port ${port} on ${HOST} needs more privileges; choose another with PORT, e.g. PORT=${DEFAULT_PORT} npm start`;
  return `cannot serve on ${HOST}:${port} (${e?.message ?? e}); choose another port with PORT=N npm start`;
}

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--no-build');
if (unknown.length) fail(`unknown argument ${unknown[0]} (known: --no-build; the port comes from PORT)`, 2);
const port = readPort();
await probe(port).catch((e) => fail(portError(port, e), 1));

execFileSync(process.execPath, ['scripts/ensure-deps.mjs'], { stdio: 'inherit' });
const { build, preview } = await import('vite');
if (!args.includes('--no-build')) await build();
try {
  const server = await preview({ preview: { host: HOST, port, strictPort: true } });
  server.printUrls();
} catch (e) {
  // Taken between the probe and now (another server started during the build).
  fail(portError(port, e), 1);
}
