// launch.sh checked like code: shellcheck on every generated variant, and each variant run by bash with stand-in
// `uv`, `ray`, `nvidia-smi` and `python` (real CPython with a stand-in `ray` module) on PATH and a stand-in
// sandbox_fusion server on 127.0.0.1: every refusal (no release folder, no sandbox endpoint, a sandbox that does not
// run code, too few GPUs, no or too small a Ray cluster, a node whose Ray workers lack the run's environment) and
// the exact commands it runs when all is well.
import { execFile, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curriculumProblems, exportVerl, VERL_FILES } from './index';
import { presetConfig } from '../../rl/config';

const root = mkdtempSync(join(tmpdir(), 'verl-launch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const TINY = presetConfig('tiny');
const SETS = curriculumProblems(TINY);

function writeExport(
  name: string,
  nodes: number,
  gpusPerNode: number,
  coderModel = 'Qwen/Qwen2.5-Coder-1.5B-Instruct',
) {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const { files } = exportVerl(TINY, SETS, {
    coderModel,
    testerModel: 'Qwen/Qwen2.5-Coder-1.5B-Instruct',
    nodes,
    gpusPerNode,
    experimentName: name,
  });
  for (const f of VERL_FILES) writeFileSync(join(dir, f), files[f]);
  return dir;
}

const VARIANTS = [
  { nodes: 1, gpus: 2 },
  { nodes: 1, gpus: 8 },
  { nodes: 2, gpus: 2 },
  { nodes: 4, gpus: 8 },
];

describe('launch.sh: shellcheck', () => {
  const shellcheck = spawnSync('shellcheck', ['--version']).status === 0;
  it.skipIf(!shellcheck)('every generated variant is shellcheck-clean', () => {
    for (const v of VARIANTS) {
      const dir = writeExport(`sc-${v.nodes}x${v.gpus}`, v.nodes, v.gpus, '/models/coder dir');
      const r = spawnSync('shellcheck', ['-s', 'bash', '-S', 'style', join(dir, 'launch.sh')], { encoding: 'utf8' });
      expect(r.stdout + r.stderr, `${v.nodes} x ${v.gpus}`).toBe('');
      expect(r.status).toBe(0);
    }
  });
  if (!shellcheck)
    console.log('skipping shellcheck: not installed (node scripts/ensure-deps.mjs --system installs it)');
});

// ---- stand-ins -------------------------------------------------------------------------------------------------

const BIN = join(root, 'bin');
const PYLIB = join(root, 'pylib');
const LOG = join(root, 'calls.jsonl');
const CLUSTER = join(root, 'cluster.json');
const REL = join(root, 'release', 'Code-A1');

const LOG_CALL = `import json, os, sys
def log(name):
    keep = ("PREFIX", "WANDB_MODE", "SANDBOX_FUSION_ENDPOINT", "CODE_A1_DIR", "CODE_A1_EXPORT_DIR")
    with open(os.environ["STUB_LOG"], "a") as f:
        f.write(json.dumps({"cmd": name, "args": sys.argv[1:], "cwd": os.getcwd(),
                            "env": {k: os.environ[k] for k in keep if k in os.environ}}) + "\\n")
`;

function stub(name: string, body: string) {
  writeFileSync(join(BIN, name), body);
  chmodSync(join(BIN, name), 0o755);
}

function writeStandIns() {
  mkdirSync(BIN, { recursive: true });
  mkdirSync(join(PYLIB, 'ray', 'util'), { recursive: true });
  writeFileSync(join(PYLIB, 'calllog.py'), LOG_CALL);
  stub(
    'uv',
    `#!/usr/bin/python3\nimport sys; sys.path.insert(0, ${JSON.stringify(PYLIB)})\nimport calllog; calllog.log("uv")\nprint("training output")\n`,
  );
  stub(
    'nvidia-smi',
    `#!/bin/bash\n[ "$1" = -L ] || exit 2\nfor ((i = 0; i < \${STUB_GPUS:-0}; i++)); do echo "GPU $i: NVIDIA H100 80GB HBM3 (UUID: GPU-$i)"; done\n`,
  );
  stub('python', `#!/bin/bash\nexport PYTHONPATH=${PYLIB}\nexec /usr/bin/python3 "$@"\n`);
  // `ray start` adds a node to the stand-in cluster with the environment it was started with (what a real raylet
  // hands its workers).
  stub(
    'ray',
    `#!/usr/bin/python3
import json, os, sys
sys.path.insert(0, ${JSON.stringify(PYLIB)})
import calllog; calllog.log("ray")
path = os.environ["FAKE_RAY_CLUSTER"]
c = json.load(open(path)) if os.path.exists(path) else {"running": False, "nodes": []}
if sys.argv[1] != "start": sys.exit(2)
head = "--head" in sys.argv
if not head and not c["running"]: sys.exit("no head to join")
gpus = [a.split("=")[1] for a in sys.argv if a.startswith("--num-gpus=")]
c["running"] = True
c["nodes"].append({"NodeID": "n%d" % len(c["nodes"]), "NodeManagerAddress": "10.0.0.%d" % (len(c["nodes"]) + 1),
                   "Alive": True, "Resources": {"GPU": float(gpus[0]) if gpus else 0.0}, "env": dict(os.environ)})
json.dump(c, open(path, "w"))
`,
  );
  writeFileSync(
    join(PYLIB, 'ray', '__init__.py'),
    `# Stand-in for ray: a cluster described in $FAKE_RAY_CLUSTER; a task runs in this process under its node's environment.
import json, os
def _cluster():
    p = os.environ.get("FAKE_RAY_CLUSTER", "")
    return json.load(open(p)) if p and os.path.exists(p) else {"running": False, "nodes": []}
def init(address=None, **kw):
    if not _cluster()["running"]:
        raise ConnectionError("Could not find any running Ray instance.")
def nodes():
    return [{k: v for k, v in n.items() if k != "env"} for n in _cluster()["nodes"]]
class _Ref:
    def __init__(self, v): self.v = v
class _Fn:
    def __init__(self, fn, node=None): self.fn, self.node = fn, node
    def options(self, scheduling_strategy=None): return _Fn(self.fn, scheduling_strategy.node_id)
    def remote(self, *a):
        env = next(n for n in _cluster()["nodes"] if n["NodeID"] == self.node)["env"]
        saved = dict(os.environ)
        os.environ.clear(); os.environ.update(env)
        try: return _Ref(self.fn(*a))
        finally: os.environ.clear(); os.environ.update(saved)
def remote(*a, **kw):
    return _Fn(a[0]) if a and callable(a[0]) else (lambda fn: _Fn(fn))
def get(refs, timeout=None):
    return [r.v for r in refs]
`,
  );
  writeFileSync(join(PYLIB, 'ray', 'util', '__init__.py'), '');
  writeFileSync(
    join(PYLIB, 'ray', 'util', 'scheduling_strategies.py'),
    'class NodeAffinitySchedulingStrategy:\n    def __init__(self, node_id, soft): self.node_id, self.soft = node_id, soft\n',
  );
  for (const f of ['code/rl/main_a1.py', 'code/rl/trainer_a1.py', '.venv-rl/bin/activate']) {
    mkdirSync(join(REL, f, '..'), { recursive: true });
    writeFileSync(join(REL, f), '');
  }
}

/** sandbox_fusion's run_code answer for print(6 * 7), or a broken one. */
let sandboxOk = true;
let server: Server;
let ENDPOINT = '';
beforeAll(async () => {
  writeStandIns();
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const ok = req.url === '/run_code' && (JSON.parse(body) as { code: string }).code === 'print(6 * 7)';
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify(
          sandboxOk && ok
            ? { status: 'Success', run_result: { status: 'Finished', stdout: '42\n', stderr: '' } }
            : { status: 'SandboxError', message: 'no runtime', run_result: null },
        ),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  ENDPOINT = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

interface Call {
  cmd: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

async function run(
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number; stdout: string; stderr: string; calls: Call[] }> {
  rmSync(LOG, { force: true });
  const full: Record<string, string> = { PATH: `${BIN}:/usr/bin:/bin`, STUB_LOG: LOG, FAKE_RAY_CLUSTER: CLUSTER };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) full[k] = v;
  return new Promise((resolve) => {
    const [file, argv] = script.endsWith('.sh') ? ['/bin/bash', [script, ...args]] : [script, args];
    execFile(file, argv, { env: full }, (err, stdout, stderr) => {
      const calls = existsSync(LOG)
        ? readFileSync(LOG, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Call)
        : [];
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr, calls });
    });
  });
}

const good = () => ({ CODE_A1_DIR: REL, SANDBOX_FUSION_ENDPOINT: ENDPOINT, STUB_GPUS: '8' });
const resetCluster = () => rmSync(CLUSTER, { force: true });

describe('launch.sh on one node', () => {
  let dir = '';
  let sh = '';
  beforeAll(() => {
    dir = writeExport('one', 1, 8);
    sh = join(dir, 'launch.sh');
  });

  it.each([
    ['no release folder', { CODE_A1_DIR: undefined }, /set CODE_A1_DIR/],
    ['a folder that is not the release', { CODE_A1_DIR: root }, /has no code\/rl\/main_a1\.py or \.venv-rl/],
    ['no sandbox endpoint', { SANDBOX_FUSION_ENDPOINT: undefined }, /set SANDBOX_FUSION_ENDPOINT/],
    ['a sandbox address that is no URL', { SANDBOX_FUSION_ENDPOINT: 'HOST:8080' }, /not an http\(s\):\/\/ address/],
    ['no sandbox server there', { SANDBOX_FUSION_ENDPOINT: 'http://127.0.0.1:9' }, /does not answer run_code/],
    ['too few GPUs', { STUB_GPUS: '4' }, /this node has 4 GPU\(s\); the export is sized for 8/],
    ['no GPU driver', { PATH: `${join(root, 'nogpu')}:/usr/bin:/bin` }, /nvidia-smi is not on PATH/],
  ])('refuses with %s, before running anything', async (_what, env, message) => {
    resetCluster();
    mkdirSync(join(root, 'nogpu'), { recursive: true });
    for (const b of ['uv', 'python', 'ray']) writeFileSync(join(root, 'nogpu', b), readFileSync(join(BIN, b)));
    const r = await run(sh, [], { ...good(), ...env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.calls.filter((c) => c.cmd === 'uv')).toEqual([]);
  });

  it('refuses a sandbox that answers but does not run code', async () => {
    sandboxOk = false;
    try {
      const r = await run(sh, [], good());
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/status 'SandboxError'.*not 42.*score every rollout 0/);
      expect(r.calls).toEqual([]);
    } finally {
      sandboxOk = true;
    }
  });

  it('refuses a Ray already running here whose workers lack the sandbox address', async () => {
    resetCluster();
    const bare = await run(join(BIN, 'ray'), ['start', '--head', '--num-gpus=8'], {});
    expect(bare.code).toBe(0);
    const r = await run(sh, [], good());
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/node 10\.0\.0\.1: SANDBOX_FUSION_ENDPOINT is unset in its Ray workers/);
    expect(r.calls.filter((c) => c.cmd === 'uv')).toEqual([]);
    resetCluster();
  });

  it('runs exactly the release trainer on this export when all is well', async () => {
    resetCluster();
    const r = await run(sh, [], good());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.calls).toEqual([
      {
        cmd: 'uv',
        args: ['run', `${REL}/code/rl/main_a1.py`, `${dir}/config.yaml`],
        cwd: REL,
        env: {
          PREFIX: dir,
          WANDB_MODE: 'offline',
          SANDBOX_FUSION_ENDPOINT: ENDPOINT,
          CODE_A1_DIR: REL,
          CODE_A1_EXPORT_DIR: dir,
        },
      },
    ]);
    expect(readFileSync(join(dir, 'logs', 'console.log'), 'utf8')).toBe('training output\n');
  });
});

describe('launch.sh on several nodes', () => {
  let sh = '';
  let dir = '';
  beforeAll(() => {
    dir = writeExport('two', 2, 2);
    sh = join(dir, 'launch.sh');
  });

  it('refuses without a running Ray cluster', async () => {
    resetCluster();
    const r = await run(sh, [], good());
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no Ray cluster is running; this export needs 2 nodes/);
    expect(r.calls).toEqual([]);
  });

  it('starts Ray on each node with the run environment, checks every node, then runs', async () => {
    resetCluster();
    const head = await run(sh, ['ray-head'], good());
    expect(head.code).toBe(0);
    const worker = await run(sh, ['ray-worker', '10.0.0.1:6379'], good());
    expect(worker.code).toBe(0);
    const env = {
      PREFIX: dir,
      WANDB_MODE: 'offline',
      SANDBOX_FUSION_ENDPOINT: ENDPOINT,
      CODE_A1_DIR: REL,
      CODE_A1_EXPORT_DIR: dir,
    };
    expect([...head.calls, ...worker.calls]).toEqual([
      { cmd: 'ray', args: ['start', '--head', '--port=6379', '--num-gpus=2'], cwd: process.cwd(), env },
      { cmd: 'ray', args: ['start', '--address=10.0.0.1:6379', '--num-gpus=2'], cwd: process.cwd(), env },
    ]);
    const r = await run(sh, [], good());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Ray cluster ok: 2 node\(s\), 4 GPU\(s\)/);
    expect(r.calls.map((c) => [c.cmd, ...c.args])).toEqual([
      ['uv', 'run', `${REL}/code/rl/main_a1.py`, `${dir}/config.yaml`],
    ]);
  });

  it('refuses a Ray cluster too small for the export', async () => {
    resetCluster();
    await run(sh, ['ray-head'], good());
    const r = await run(sh, [], good());
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the Ray cluster has 1 node\(s\); this export needs 2/);
    expect(r.stderr).toMatch(/the Ray cluster has 2 GPU\(s\); this export needs 4/);
    expect(r.calls).toEqual([]);
  });

  it('refuses a node whose Ray was started without the run environment', async () => {
    resetCluster();
    await run(sh, ['ray-head'], good());
    await run(join(BIN, 'ray'), ['start', '--address=10.0.0.1:6379', '--num-gpus=2'], {});
    const r = await run(sh, [], good());
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/node 10\.0\.0\.2: SANDBOX_FUSION_ENDPOINT is unset in its Ray workers/);
    expect(r.stderr).toMatch(/node 10\.0\.0\.2: WANDB_MODE is not offline/);
    expect(r.stderr).not.toMatch(/node 10\.0\.0\.1/);
    expect(r.calls).toEqual([]);
  });
});
