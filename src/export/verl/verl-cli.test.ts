// `npm run export -- --verl`: one command writes the whole folder for the tiny preset and for an imported HumanEval
// file; the folder is checked as the release would read it (Python: the rows' check() on their ground truth, and
// pyarrow's schema of both parquet files when pyarrow can be imported).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import releaseSchema from './fixtures/release-val-schema.json' with { type: 'json' };
import releaseConfigs from './fixtures/release-configs.json' with { type: 'json' };
import { exportVerlCli } from '../../cli/export-verl';
import { parseVerlConfig, labFieldsFromVerl } from './config-yaml';
import { readRows, rowToProblem, type VerlRow } from './dataset';
import { curriculumProblems, VERL_FILES } from './index';
import { presetConfig } from '../../rl/config';
import { parseMetricsJsonl } from '../../rl/metrics';
import { importJsonl } from '../../tasks/importers';
import { RunDir } from '../../run/run-store';
import { NodeRunStore } from '../../run/run-store-node';

const CHECK = new URL('./check-export.py', import.meta.url).pathname;
// A HumanEval-format file whose reference solutions pass their tests (npm run tasks -- verify checks it).
const HUMANEVAL = new URL('./fixtures/humaneval-sample.jsonl', import.meta.url).pathname;
// Qwen2.5's tokenizer, cut to the exported prompts: the prompt limits are sized with it offline.
const QWEN = new URL('../../../fixtures/hf/qwen2.5-coder-prompts', import.meta.url).pathname;

function works(python: string, code: string): boolean {
  return spawnSync(python, ['-c', code], { encoding: 'utf8' }).status === 0;
}
// VERL_CHECK_PYTHON names an interpreter with pyarrow; a venv at /tmp/venv (made by some setups) is tried too.
const pythons = [process.env.VERL_CHECK_PYTHON, 'python3', '/tmp/venv/bin/python'].filter((p): p is string => !!p);
const python = pythons.find((p) => works(p, 'pass'));
const pyarrow = pythons.find((p) => works(p, 'import pyarrow'));
if (!pyarrow) console.log(`skipping the pyarrow schema check: none of ${pythons.join(', ')} can import pyarrow`);

const root = mkdtempSync(join(tmpdir(), 'verl-export-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function exportTo(name: string, args: string[]): Promise<Record<string, Uint8Array>> {
  const out = join(root, name);
  await exportVerlCli([...args, '--verl', out, '--name', name, '--tokenizer', QWEN]);
  return Object.fromEntries(VERL_FILES.map((f) => [f, new Uint8Array(readFileSync(join(out, f)))]));
}

function harness(rows: VerlRow[]): { rows: number; failures: unknown[] } {
  const r = spawnSync(python!, [CHECK, 'harness'], {
    input: JSON.stringify(rows),
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as { rows: number; failures: unknown[] };
}

describe('npm run export -- --verl', () => {
  const cases = [
    { name: 'tiny', args: ['--preset', 'tiny'] },
    { name: 'humaneval', args: ['--tasks', HUMANEVAL, '--gpus-per-node', '2', '--set', 'rollout.problems_per_step=4'] },
  ];
  const exported = new Map<string, Promise<Record<string, Uint8Array>>>();
  const files = (name: string) => {
    if (!exported.has(name)) exported.set(name, exportTo(name, cases.find((c) => c.name === name)!.args));
    return exported.get(name)!;
  };

  it.each(cases)(
    '$name: one command writes all files; they read back as the problems and config they came from',
    async ({ name }) => {
      const f = await files(name);
      expect(statSync(join(root, name, 'launch.sh')).mode & 0o111).toBeTruthy();
      const train = (await readRows(f['train.parquet'])).map(rowToProblem);
      const val = (await readRows(f['val.parquet'])).map(rowToProblem);
      const flat = parseVerlConfig(new TextDecoder().decode(f['config.yaml']));
      expect(Object.keys(flat).filter((k) => !(k in releaseConfigs.configs['1.5B_A1']))).toEqual([]);
      if (name === 'tiny') {
        const cur = curriculumProblems(presetConfig('tiny'));
        expect(train.map((p) => p.id)).toEqual(cur.train.map((p) => p.id));
        expect(val.map((p) => p.hiddenTests)).toEqual(cur.val.map((p) => p.hiddenTests));
        expect(labFieldsFromVerl(flat)).toMatchObject({
          'rollout.num_generations': 4,
          'rollout.tester_generations': 2,
          'optim.lr': 2e-4,
          'reward.alpha': 0.5,
        });
      } else {
        // The paper preset's values (the default for a tasks file), and every problem of the file in one of the two sets.
        const src = importJsonl(readFileSync(HUMANEVAL, 'utf8')).items.map((i) => i.problem);
        expect([...train, ...val].map((p) => p.id).sort()).toEqual(src.map((p) => p.id).sort());
        expect(val.length).toBeGreaterThan(0);
        expect(labFieldsFromVerl(flat)).toMatchObject({ 'rollout.num_generations': 8, 'grpo.beta': 0.001 });
        expect(flat['trainer.n_gpus_per_node']).toBe(1);
      }
      const readme = new TextDecoder().decode(f['README.md']);
      expect(readme).toContain('npm run import-run -- --verl-logs');
      expect(new TextDecoder().decode(f['launch.sh'])).toContain('code/rl/main_a1.py" "$EXPORT_DIR/config.yaml"');
    },
  );

  it("--run exports the config a run was trained with, under the run's name; bad input gets a clear error", async () => {
    const run = join(root, 'runs', 'my-run');
    await new RunDir(new NodeRunStore(run)).init(
      presetConfig('micro', { rollout: { num_generations: 6 }, reward: { alpha: 0.3 } }),
    );
    const hf = join(root, 'hf-coder');
    mkdirSync(hf);
    writeFileSync(
      join(hf, 'config.json'),
      JSON.stringify({ model_type: 'qwen2', architectures: ['Qwen2ForCausalLM'] }),
    );
    const out = join(root, 'from-run');
    // Without a tokenizer in the model folder nothing can count the prompts: refused, saying what to give.
    await expect(
      exportVerlCli(['--run', run, '--verl', out, '--gpus-per-node', '2', '--coder-model', hf]),
    ).rejects.toThrow(/cannot count the prompts' tokens with .*hf-coder's tokenizer .*give --tokenizer DIR/);
    // The model folder's own tokenizer is the one used.
    for (const f of ['tokenizer.json', 'tokenizer_config.json', 'chat_template.jinja'])
      writeFileSync(join(hf, f), readFileSync(join(QWEN, f)));
    await exportVerlCli([
      '--run',
      run,
      '--verl',
      out,
      '--gpus-per-node',
      '2',
      '--coder-model',
      hf,
      '--tester-model',
      hf,
    ]);
    const flat = parseVerlConfig(readFileSync(join(out, 'config.yaml'), 'utf8'));
    expect([
      flat['trainer.experiment_name'],
      flat['actor_rollout_ref.rollout.n'],
      flat['reward_model.reward_kwargs.alpha'],
    ]).toEqual(['my-run', 6, 0.3]);
    expect(flat['actor_rollout_ref.model.path']).toBe(hf);
    await expect(exportVerlCli(['--run', join(root, 'nowhere'), '--verl', out])).rejects.toThrow(
      'no config.json there',
    );
    await expect(exportVerlCli(['--preset', 'tiny', '--verl', out, '--coder-model', 'not an id'])).rejects.toThrow(
      'neither an existing directory nor a Hugging Face id',
    );
    await expect(exportVerlCli(['--tasks', HUMANEVAL, '--verl', out, '--tokenizer', QWEN])).rejects.toThrow(
      /5 training problems make no full batch of 256 \(rollout.problems_per_step\)/,
    );
    // A lab run folder has a config.json too, but not a Hugging Face one.
    await expect(exportVerlCli(['--preset', 'tiny', '--verl', out, '--coder-model', run])).rejects.toThrow(
      'not a Hugging Face model directory',
    );
  });

  it.skipIf(!python).each(cases)(
    "$name: every row's check() passes on its own ground truth in Python, as the release's validation runs it",
    async ({ name }) => {
      const f = await files(name);
      for (const file of ['train.parquet', 'val.parquet']) {
        const rows = await readRows(f[file]);
        const r = harness(rows);
        expect(r).toEqual({ rows: rows.length, failures: [] });
      }
      // The harness can fail: a wrong expected value is caught.
      const rows = await readRows(f['val.parquet']);
      const bad = { ...rows[0], test: rows[0].test.replace(/(# hidden tests\n\s+assert .*==)/, '$1 1 + ') };
      expect(harness([bad]).failures).toHaveLength(1);
    },
  );

  it("npm run import-run -- --verl-logs reads a launch folder's logs into the lab's metrics.jsonl", () => {
    const logs = join(root, 'cluster', 'logs');
    mkdirSync(join(logs, 'model_a_rollout'), { recursive: true });
    const line = (s: number, kv: string) => `(TaskRunner pid=9) step:${s} - ${kv}`;
    writeFileSync(
      join(logs, 'console.log'),
      [1, 2, 3]
        .flatMap((s) => [line(s, `reward_a/mean:0.${s}00 - actor_a/pg_loss:-0.010`), line(s, 'reward_b2/mean:0.250')])
        .join('\n'),
    );
    // Rollout dumps in subfolders are not metrics and are not read.
    writeFileSync(join(logs, 'model_a_rollout', '1.jsonl'), '{"step": 1, "score": 1.0}\n');
    const cli = (...a: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/import-run.ts', ...a], { encoding: 'utf8' });
    const out = join(root, 'runs', 'cluster');
    const r = cli('--verl-logs', logs, '--out', out);
    expect(r.status, r.stderr).toBe(0);
    const m = parseMetricsJsonl(readFileSync(join(out, 'metrics.jsonl'), 'utf8'));
    expect(m.map((x) => [x.step, x['coder/reward_mean'], x['tester/reward_mean']])).toEqual([
      [0, 0.1, 0.25],
      [1, 0.2, 0.25],
      [2, 0.3, 0.25],
    ]);
    const empty = join(root, 'empty');
    mkdirSync(empty);
    expect(cli('--verl-logs', empty).stderr).toContain('no .log, .txt, .out or .jsonl file in it');
  });

  it.skipIf(!pyarrow)('pyarrow reads both files with exactly the release’s column types', async () => {
    await files('tiny');
    const paths = ['train.parquet', 'val.parquet'].map((f) => join(root, 'tiny', f));
    const r = spawnSync(pyarrow!, [CHECK, 'schema', ...paths], { encoding: 'utf8', maxBuffer: 1 << 26 });
    expect(r.status, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout) as Record<
      string,
      { columns: Record<string, string>; rows: number; first: VerlRow }
    >;
    const [train, val] = paths.map((p) => got[p]);
    expect(val.columns).toEqual(releaseSchema.arrow);
    expect(train.columns).toEqual({ ...releaseSchema.arrow, clean_description: 'string' });
    const cur = curriculumProblems(presetConfig('tiny'));
    expect([train.rows, val.rows]).toEqual([cur.train.length, cur.val.length]);
    expect(rowToProblem(val.first).hiddenTests).toEqual(cur.val[0].hiddenTests);
  });
});
