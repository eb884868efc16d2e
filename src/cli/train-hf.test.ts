// `npm run train` / `npm run eval` with Hugging Face models: a LoRA code-a1 run of two steps on transformers'
// fixture models (memory plan printed, PEFT adapters saved per step), resumed exactly with --resume, the planner's refusal with a setting that
// fits, and an evaluation of the fixture as the Coder.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importPeftAdapter } from '../model/hf/export';
import { importHfModel } from '../model/hf/import';
import { dirSource } from '../model/hf/source-node';
import { runCli as cli } from '../testing/cli';

const CODER = 'fixtures/hf/qwen2-tied-gqa-f32';
const TESTER = 'fixtures/hf/qwen2-untied-mqa-bf16';
const SHORT = ['--set', 'rollout.max_completion_length=24', '--set', 'rollout.max_test_completion_length=24'];

describe('train / eval with --coder-model', { timeout: 600_000 }, async () => {
  const out = await mkdtemp(join(tmpdir(), 'train-hf-'));
  afterAll(() => rm(out, { recursive: true, force: true }));

  it('runs two LoRA code-a1 steps on the fixture models and saves PEFT adapters of both', async () => {
    const dir = join(out, 'run');
    const { stdout } = await cli(
      'train',
      '--preset',
      'micro',
      '--coder-model',
      CODER,
      '--tester-model',
      TESTER,
      '--lora-rank',
      '4',
      '--steps',
      '2',
      '--out',
      dir,
      ...SHORT,
    );
    expect(stdout).toMatch(/memory plan for the coder \(LoRA r4, int8-b32 base, 4 rollouts/);
    expect(stdout).toMatch(/memory plan for the tester \(LoRA r4, int8-b32 base, 8 rollouts/);
    expect(stdout).toMatch(/step\s+1 \| coder r/);
    const metrics = (await readFile(join(dir, 'metrics.jsonl'), 'utf8')).trim().split('\n');
    expect(metrics).toHaveLength(2);
    for (const [role, model] of [
      ['coder', CODER],
      ['tester', TESTER],
    ]) {
      const cfg = await readFile(join(dir, 'latest', role, 'adapter_config.json'), 'utf8');
      expect(JSON.parse(cfg)).toMatchObject({ peft_type: 'LORA', r: 4, lora_alpha: 8 });
      // PEFT loads the base from this field: the folder's absolute path (not in a hub cache), holding the model.
      const base = (JSON.parse(cfg) as { base_model_name_or_path: string }).base_model_name_or_path;
      expect(base).toBe(resolve(model));
      expect(existsSync(join(base, 'config.json'))).toBe(true);
      expect(readdirSync(base).some((n) => n.endsWith('.safetensors'))).toBe(true);
      const { layout } = await importHfModel(dirSource(model));
      const back = importPeftAdapter(
        layout,
        cfg,
        await readFile(join(dir, 'latest', role, 'adapter_model.safetensors')),
      );
      expect(back.pairs.size).toBe(layout.config.layers * 7);
    }
    // M = 4 candidates for the step's one problem, recorded as for the lab's own models.
    const rollouts = JSON.parse(await readFile(join(dir, 'rollouts', 'step-00000.json'), 'utf8')) as {
      candidates: unknown[];
    }[];
    expect(rollouts[0].candidates).toHaveLength(4);
  });

  // Continues the first test's run: one step, then --resume for one more, must equal its two uninterrupted steps.
  it('resumes a LoRA run (adapters, AdamW moments and step from the run dir) to the same next step', async () => {
    const dir = join(out, 'resumed');
    const args = ['--preset', 'micro', '--coder-model', CODER, '--tester-model', TESTER, '--lora-rank', '4', ...SHORT];
    await cli('train', ...args, '--steps', '1', '--out', dir);
    await expect(cli('train', '--resume', dir, '--coder-model', CODER, '--steps', '1')).rejects.toThrow(
      /drop --coder-model/,
    );
    const { stdout } = await cli('train', '--resume', dir, '--steps', '1');
    expect(stdout).toMatch(/resuming at step 1/);
    // Wall times differ between runs; every other metric (rewards, losses, KL, grad norms, token counts) must not.
    const strip = (line: string) =>
      Object.fromEntries(
        Object.entries(JSON.parse(line) as Record<string, unknown>).filter(
          ([k]) => !k.startsWith('time') && !k.startsWith('perf'),
        ),
      );
    const lines = async (d: string) => (await readFile(join(d, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(strip);
    const [whole, resumed] = [await lines(join(out, 'run')), await lines(dir)];
    expect(resumed).toHaveLength(2);
    expect(resumed).toEqual(whole);
    // optimizer.safetensors exists once a model has taken an update (a step whose rewards all tie takes none).
    const read = (d: string, f: string) => readFile(join(d, f)).catch(() => undefined);
    for (const role of ['coder', 'tester'])
      for (const f of ['adapter_model.safetensors', 'optimizer.safetensors']) {
        const [a, b] = [await read(join(out, 'run', 'latest', role), f), await read(join(dir, 'latest', role), f)];
        if (f === 'adapter_model.safetensors') expect(a, `${role}/${f}`).toBeDefined();
        expect(b === undefined, `${role}/${f} in both runs or in neither`).toBe(a === undefined);
        if (a && b) expect(b.equals(a), `${role}/${f} after resume`).toBe(true);
      }
  });

  it('refuses a run whose memory plan exceeds the budget and names a setting that fits', async () => {
    await expect(
      cli(
        'train',
        '--preset',
        'micro',
        '--coder-model',
        CODER,
        '--budget-gb',
        '0.006',
        '--steps',
        '1',
        '--out',
        join(out, 'refused'),
      ),
    ).rejects.toThrow(
      /coder: memory plan: needs 12\.\d MiB in total, the budget is 6\.1 MiB\. it fits with: recompute on \(optim\.recompute\), micro-batch \d[\s\S]*--micro-batch N; per-layer recompute is --set optim\.recompute=true/,
    );
  });

  it('evaluates a Hugging Face model as the Coder', async () => {
    const { stdout } = await cli(
      'eval',
      '--preset',
      'micro',
      '--coder-model',
      CODER,
      '--lora-rank',
      '4',
      '--problems',
      '1',
      '--samples',
      '1',
      '--splits',
      'heldout',
    );
    expect(stdout).toMatch(/memory plan for the coder/);
    expect(stdout).toMatch(/heldout\s+1\s+\d+\.\d%/);
  });
});
