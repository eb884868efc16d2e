// The shipped SFT-half warm-start (public/models/tiny-sft-half): a tiny-shaped Coder and Tester sharing one tokenizer
// (trained on the SFT half's corpus), trained on the SFT half of the training instances only (so RL with
// tasks.train_part=rl sees unseen ones).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadCheckpointDir } from './checkpoint-node';
import { loadTokenizer } from './tokenizer';

const DIR = 'public/models/tiny-sft-half';

interface Stage {
  model: string;
  steps: number;
  part?: string;
  command: string;
}

/** The largest change of a weight against another checkpoint of the same shape; every weight must be finite. */
function movedFrom(params: ArrayLike<number>, from: ArrayLike<number>): number {
  expect(params.length).toBe(from.length);
  let maxDiff = 0;
  for (let i = 0; i < params.length; i++) {
    expect(Number.isFinite(params[i])).toBe(true);
    maxDiff = Math.max(maxDiff, Math.abs(params[i] - from[i]));
  }
  return maxDiff;
}

describe('public/models/tiny-sft-half', () => {
  for (const role of ['coder', 'tester'] as const) {
    it(`${role}: the tiny shape, the Coder's tokenizer, finite weights, not a copy of the shipped tiny ${role}`, async () => {
      const ck = await loadCheckpointDir(`${DIR}/${role}`);
      const shipped = await loadCheckpointDir(`public/models/tiny/${role}`);
      expect(ck.config).toEqual(shipped.config);
      // One tokenizer for both roles (the Tester reads the Coder's code), its ids inside the embedding table.
      expect(ck.tokenizerJson).toBe((await loadCheckpointDir(`${DIR}/coder`)).tokenizerJson);
      expect(loadTokenizer(ck.tokenizerJson!).vocabSize).toBeLessThanOrEqual(ck.config.vocabSize);
      expect(movedFrom(ck.params, shipped.params)).toBeGreaterThan(0.01);
    });
  }

  it('pretrain.json records every stage, each on the SFT part only, and the checkpoints carry its step counts', async () => {
    const rec = JSON.parse(await readFile(`${DIR}/pretrain.json`, 'utf8')) as { history: Stage[] };
    const total = (model: string) => rec.history.filter((h) => h.model === model).reduce((a, h) => a + h.steps, 0);
    expect(rec.history.map((h) => h.part)).toEqual(rec.history.map(() => 'sft'));
    for (const h of rec.history) expect(h.command).toContain('--part sft');
    expect(total('coder')).toBe(1300);
    expect(total('tester')).toBe(850);
    // The last stage of each model is what the checkpoint holds.
    for (const role of ['coder', 'tester'] as const) {
      const last = rec.history.filter((h) => h.model === role).at(-1)!;
      expect((await loadCheckpointDir(`${DIR}/${role}`)).metadata.pretrain_steps).toBe(String(last.steps));
    }
  });
});

// The SFT-half Coder trained 300 more steps on the same half (seed 2), shipped as a Model-panel option: the start of
// docs/results.md's strongest runs. It is used with the SFT-half Tester, so only the Coder is shipped.
describe('public/models/tiny-sft-half-plus300', () => {
  const PLUS = 'public/models/tiny-sft-half-plus300';

  it("coder: the SFT-half Coder's shape and tokenizer, finite weights that moved from it", async () => {
    const ck = await loadCheckpointDir(`${PLUS}/coder`);
    const base = await loadCheckpointDir(`${DIR}/coder`);
    expect(ck.config).toEqual(base.config);
    expect(ck.tokenizerJson).toBe(base.tokenizerJson);
    expect(movedFrom(ck.params, base.params)).toBeGreaterThan(0.01);
    expect(ck.metadata).toMatchObject({ pretrain_steps: '300', seed: '2' });
  });

  it("pretrain.json: the SFT-half's stages, then 300 Coder steps with seed 2 continuing it, all on the SFT part", async () => {
    const read = async (dir: string) =>
      (JSON.parse(await readFile(`${dir}/pretrain.json`, 'utf8')) as { history: Stage[] }).history;
    const [plus, base] = [await read(PLUS), await read(DIR)];
    expect(plus.slice(0, base.length)).toEqual(base);
    expect(plus).toHaveLength(base.length + 1);
    const last = plus.at(-1)!;
    expect(last).toMatchObject({ model: 'coder', steps: 300, part: 'sft' });
    expect(last.command).toContain('--init');
    expect(last.command).toContain('--seed 2');
    expect(last.command).toContain('--part sft');
  });
});
