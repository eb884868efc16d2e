// `npm run hf`: export of a shipped lab checkpoint to a Hugging Face folder (re-imported bit-identical in f32), and
// inspect of that folder, including the memory planner's refusal under a small budget.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCheckpointDir } from '../model/checkpoint-node';
import { importHfModel } from '../model/hf/import';
import { dirSource } from '../model/hf/source-node';
import { sharedNodeGpu } from '../gpu/node';
import { runCli } from '../testing/cli';

const cli = (...args: string[]) => runCli('hf', ...args);
const CKPT = 'public/models/micro/coder';

describe('npm run hf', async () => {
  const out = await mkdtemp(join(tmpdir(), 'hf-cli-'));
  afterAll(() => rm(out, { recursive: true, force: true }));

  it('export writes a Qwen2 folder that imports back to the checkpoint exactly, with the tokenizer and stop ids', async () => {
    const { stdout } = await cli('export', '--checkpoint', CKPT, '--out', out, '--max-shard-mb', '0');
    expect(stdout).toMatch(/re-imported: max rel diff 0\.00e\+0 from the checkpoint/);
    const back = await importHfModel(dirSource(out));
    const ck = await loadCheckpointDir(CKPT);
    expect(back.params).toEqual(ck.params);
    expect(
      JSON.parse(await readFile(join(out, 'model.safetensors.index.json'), 'utf8')).weight_map['model.norm.weight'],
    ).toMatch(/^model-\d{5}-of-\d{5}\.safetensors$/);
    expect(JSON.parse(await readFile(join(out, 'generation_config.json'), 'utf8')).eos_token_id).toHaveLength(2);
  });

  it('inspect describes the folder and plans memory; a budget too small is refused with the reason', async () => {
    const { stdout } = await cli('inspect', out, '--seq', '64', '--rollout', '2', '--micro', '1', '--rank', '4');
    expect(stdout).toMatch(/layers 2, hidden 32, heads 4 \(kv 2, dim 8\)/);
    expect(stdout).toMatch(/tokenizer: 390 ids, eos <\|end\|>/);
    expect(stdout).toMatch(/KV cache \(2 × 64 tokens\)/);
    await expect(cli('inspect', out, '--budget-gb', '0.0001')).rejects.toThrow(/memory plan: needs .* the budget is/);
  });

  it("--load --weights f16 loads where the adapter has 'shader-f16' and is refused with the alternatives elsewhere", async () => {
    const load = cli('inspect', out, '--seq', '64', '--load', '--weights', 'f16');
    if ((await sharedNodeGpu()).hasF16) expect((await load).stdout).toMatch(/loaded \d+ tensors as f16/);
    else
      await expect(load).rejects.toThrow(
        /--weights f16 needs a WebGPU adapter with the 'shader-f16' feature.*Use --weights f32, or one of int8-row/,
      );
  });
});
