// No prompt the release builds is too long: every Coder prompt and every Tester prompt (the problem plus a Coder
// answer of the full response length), rendered as the release renders them and counted with Qwen2.5's tokenizer
// (an offline cut of it, fixtures/hf/qwen2.5-coder-prompts), fits the limits the export writes; a model whose context
// cannot hold them is refused with the problems named.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { curriculumProblems, exportVerl, type ExportOptions } from './index';
import { parseVerlConfig } from './config-yaml';
import { problemToRow } from './dataset';
import { releaseTesterMessages, type ChatCounter } from './prompt-lengths';
import { loadHfTokenizer, type HfTokenizer } from '../../model/hf/tokenizer';
import { dirSource } from '../../model/hf/source-node';
import { testerMessages } from '../../rl/prompts-chat';
import { presetConfig } from '../../rl/config';
import { importJsonl } from '../../tasks/importers';

const QWEN = new URL('../../../fixtures/hf/qwen2.5-coder-prompts', import.meta.url).pathname;
const HUMANEVAL = new URL('./fixtures/humaneval-sample.jsonl', import.meta.url).pathname;
let tok: HfTokenizer;
let counter: ChatCounter;
beforeAll(async () => {
  tok = await loadHfTokenizer(dirSource(QWEN));
  counter = {
    label: 'Qwen2.5',
    count: (m) => tok.encodeChat(m, { addGenerationPrompt: true }).length,
    maxPositions: 32768,
  };
});

const opts = (o: Partial<ExportOptions> = {}): ExportOptions => ({
  coderModel: 'Qwen/Qwen2.5-Coder-1.5B-Instruct',
  testerModel: 'Qwen/Qwen2.5-Coder-1.5B-Instruct',
  nodes: 1,
  gpusPerNode: 8,
  experimentName: 'prompts',
  tokenizers: { coder: counter, tester: counter },
  ...o,
});

/** A Coder answer of exactly n tokens: the problem's function written back with its docstring, cut or repeated. */
function answerOf(n: number, code: string): string {
  let ids = tok.tokenizer.encode(code);
  while (ids.length < n) ids = ids.concat(ids);
  return tok.tokenizer.decode(ids.slice(0, n));
}

describe('the offline Qwen tokenizer fixture', () => {
  it("gives the full tokenizer's ids on the recorded prompts", () => {
    const src = JSON.parse(readFileSync(`${QWEN}/source.json`, 'utf8')) as {
      samples: { text: string; ids: number[] }[];
    };
    expect(src.samples.length).toBeGreaterThan(2);
    for (const s of src.samples) expect(tok.tokenizer.encode(s.text)).toEqual(s.ids);
  });

  it("the recorded release Tester turns are the lab's own Tester prompt at K = 8", () => {
    const [q, c] = ['def f(x):\n    """Double x."""\n', 'def f(x):\n    return {x: 2}\n'];
    expect(releaseTesterMessages(q, c, 'Qwen/Qwen2.5-Coder-1.5B-Instruct')).toEqual(testerMessages(q, c, 8));
    expect(releaseTesterMessages(q, c, '/models/coder-sft')[1].content).toMatch(
      /^Given the following Question.*Buggy Code:\n/s,
    );
  });
});

describe('prompt limits sized to the prompts', () => {
  for (const [name, make] of [
    ['tiny', () => ({ config: presetConfig('tiny'), sets: curriculumProblems(presetConfig('tiny')) })],
    [
      'humaneval sample (paper settings)',
      () => {
        const config = presetConfig('paper', { rollout: { problems_per_step: 8 } });
        const items = importJsonl(readFileSync(HUMANEVAL, 'utf8')).items.map((i) => i.problem);
        return { config, sets: { train: [...items, ...items].slice(0, 8), val: items.slice(0, 1), origin: 'sample' } };
      },
    ],
  ] as const)
    it(`${name}: every Coder prompt and every Tester prompt with a full-length answer fits`, () => {
      const { config, sets } = make();
      const { files } = exportVerl(config, sets, opts());
      const flat = parseVerlConfig(new TextDecoder().decode(files['config.yaml']));
      const R = flat['data.max_response_length'] as number;
      const coderLimit = flat['data.max_prompt_length'] as number;
      const testerLimit = flat['other.data.max_prompt_length'] as number;
      const vllmLen = (flat['actor_rollout_ref.rollout.max_model_len'] as number | null) ?? coderLimit + R;
      const over: string[] = [];
      for (const p of [...sets.train, ...sets.val]) {
        const n = counter.count(problemToRow(p, true).prompt);
        if (n > coderLimit) over.push(`${p.id} coder ${n} > ${coderLimit}`);
      }
      let longest = 0;
      for (const p of sets.train) {
        const answer = answerOf(R, p.prompt + p.solution);
        const n = counter.count(releaseTesterMessages(p.prompt, answer, 'Qwen/Qwen2.5-Coder-1.5B-Instruct'));
        longest = Math.max(longest, n);
        if (n > Math.min(testerLimit, vllmLen)) over.push(`${p.id} tester ${n} > ${testerLimit} / ${vllmLen}`);
      }
      console.log(`${name}: longest Tester prompt ${longest} tokens, limit ${testerLimit}`);
      expect(over).toEqual([]);
    });

  it('a model whose context cannot hold the prompts is refused, naming the problems', () => {
    const small = { ...counter, maxPositions: 560 };
    const config = presetConfig('tiny');
    expect(() =>
      exportVerl(config, curriculumProblems(config), opts({ tokenizers: { coder: small, tester: small } })),
    ).toThrow(/max_position_embeddings 560.*problems that do not fit: .*keys_above\/0022/);
  });

  it('without a tokenizer the export says the lengths were not counted', () => {
    const config = presetConfig('tiny');
    const { warnings } = exportVerl(config, curriculumProblems(config), opts({ tokenizers: undefined }));
    expect(warnings.join('\n')).toMatch(/prompt lengths were not counted with the model's tokenizer/);
  });
});
