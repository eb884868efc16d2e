// Records fixtures/hf/qwen2.5-coder-prompts/: a small tokenizer.json cut from Qwen2.5's byte-level BPE that
// tokenises every prompt the verl export renders for the lab's curriculum and the HumanEval sample exactly as the full
// tokenizer does (so the export's prompt-length check runs offline in tests), with Qwen2.5-Coder-Instruct's chat
// template and context length.
//   npx tsx --import ./scripts/raw-loader.mjs scripts/record-qwen-tokenizer-fixture.ts --tokenizer FULL/tokenizer.json \
//       --chat-template TEMPLATE.jinja --source "where FULL came from"
// Why the cut is exact: within a pre-token, BPE merges only symbols that end inside one final token, in rank order,
// so the merges BPE applies to each final token's characters alone are all it applies; dropping every other merge
// changes nothing for these texts (the script checks it on each of them, and longer texts only split more finely).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from '@huggingface/jinja';
import { Tokenizer } from '@huggingface/tokenizers';
import { parseArgs } from '../src/cli/args';
import { generateProblems } from '../src/tasks/generate';
import { importJsonl } from '../src/tasks/importers';
import { problemToRow } from '../src/export/verl/dataset';
import { releaseTesterMessages, type Turn } from '../src/export/verl/prompt-lengths';

const OUT = 'fixtures/hf/qwen2.5-coder-prompts';
type Merge = [string, string];

function bpeMerges(token: string, rank: Map<string, number>, used: Set<string>): void {
  let sym = [...token];
  for (;;) {
    let best = -1;
    let bestRank = Infinity;
    for (let i = 0; i + 1 < sym.length; i++) {
      const r = rank.get(`${sym[i]} ${sym[i + 1]}`);
      if (r !== undefined && r < bestRank) [best, bestRank] = [i, r];
    }
    if (best < 0) break;
    const a = sym[best];
    const b = sym[best + 1];
    used.add(`${a} ${b}`);
    const next: string[] = [];
    for (let i = 0; i < sym.length; i++) {
      if (i + 1 < sym.length && sym[i] === a && sym[i + 1] === b) {
        next.push(a + b);
        i++;
      } else next.push(sym[i]);
    }
    sym = next;
  }
  if (sym.length !== 1 || sym[0] !== token) throw new Error(`BPE of '${token}' alone gave ${sym.join(' | ')}`);
}

function main(): void {
  const a = parseArgs(process.argv.slice(2), { tokenizer: 'string', 'chat-template': 'string', source: 'string' });
  if (typeof a.tokenizer !== 'string' || typeof a['chat-template'] !== 'string')
    throw new Error('give --tokenizer FULL/tokenizer.json --chat-template FILE --source TEXT');
  const full = JSON.parse(readFileSync(a.tokenizer, 'utf8')) as {
    model: { vocab: Record<string, number>; merges: (Merge | string)[]; ignore_merges?: boolean };
    added_tokens: { content: string }[];
  };
  if (full.model.ignore_merges) throw new Error('a tokenizer with ignore_merges cannot be cut this way');
  const template = readFileSync(a['chat-template'], 'utf8');
  const chat = new Template(template);
  const render = (m: Turn[]) =>
    chat.render({ messages: m, add_generation_prompt: true, bos_token: '', eos_token: '<|im_end|>' });

  const problems = [
    ...generateProblems(),
    ...importJsonl(readFileSync('src/export/verl/fixtures/humaneval-sample.jsonl', 'utf8')).items.map((i) => i.problem),
  ];
  const texts: string[] = [];
  for (const p of problems) {
    const row = problemToRow(p, true);
    texts.push(render(row.prompt));
    for (const model of ['Qwen/Qwen2.5-Coder-1.5B-Instruct', 'out/sft-tester'])
      for (const code of ['', p.prompt + p.solution, p.solution])
        texts.push(render(releaseTesterMessages(p.prompt, code, model)));
  }

  const fullTok = new Tokenizer(full, { clean_up_tokenization_spaces: false });
  const merges = full.model.merges.map((m) => (typeof m === 'string' ? (m.split(' ') as Merge) : m));
  const rank = new Map(merges.map((m, i) => [`${m[0]} ${m[1]}`, i]));
  const used = new Set<string>();
  const added = new Set(full.added_tokens.map((t) => t.content));
  const finals = new Set<string>();
  for (const t of texts) for (const tok of fullTok.encode(t, { add_special_tokens: false }).tokens) finals.add(tok);
  for (const tok of finals) if (!added.has(tok)) bpeMerges(tok, rank, used);

  const keepMerges = merges.filter((m) => used.has(`${m[0]} ${m[1]}`));
  const keepTokens = new Set<string>(keepMerges.map((m) => m[0] + m[1]));
  // The byte alphabet: every single-character token, so any text still encodes (only more finely).
  for (const tok of Object.keys(full.model.vocab)) if ([...tok].length === 1) keepTokens.add(tok);
  const vocab = Object.fromEntries(Object.entries(full.model.vocab).filter(([t]) => keepTokens.has(t)));
  const cut = { ...full, model: { ...full.model, vocab, merges: keepMerges } };
  const cutTok = new Tokenizer(cut, { clean_up_tokenization_spaces: false });
  for (const t of texts) {
    const x = fullTok.encode(t, { add_special_tokens: false }).ids;
    const y = cutTok.encode(t, { add_special_tokens: false }).ids;
    if (x.join() !== y.join()) throw new Error(`the cut tokenizer differs from the full one on:\n${t.slice(0, 200)}`);
  }
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'tokenizer.json'), JSON.stringify(cut));
  writeFileSync(join(OUT, 'chat_template.jinja'), template);
  writeFileSync(
    join(OUT, 'tokenizer_config.json'),
    JSON.stringify(
      { eos_token: '<|im_end|>', pad_token: '<|endoftext|>', bos_token: null, model_max_length: 32768 },
      null,
      1,
    ) + '\n',
  );
  // Qwen2.5-Coder-1.5B-Instruct's context length (its config.json); the export reads max_position_embeddings.
  writeFileSync(
    join(OUT, 'config.json'),
    JSON.stringify({ model_type: 'qwen2', max_position_embeddings: 32768 }, null, 1) + '\n',
  );
  // A few prompts with the full tokenizer's ids: the test checks the cut still gives them.
  const samples = [texts[0], texts[1], texts[2], texts[texts.length - 1]].map((text) => ({
    text,
    ids: fullTok.encode(text, { add_special_tokens: false }).ids,
  }));
  writeFileSync(
    join(OUT, 'source.json'),
    JSON.stringify(
      {
        source: a.source ?? a.tokenizer,
        cut: `${Object.keys(vocab).length} of ${Object.keys(full.model.vocab).length} tokens, ${keepMerges.length} of ${merges.length} merges; exact on ${texts.length} prompts of ${problems.length} problems`,
        samples,
      },
      null,
      1,
    ) + '\n',
  );
  console.log(
    `wrote ${OUT}: ${Object.keys(vocab).length} tokens, ${keepMerges.length} merges, checked on ${texts.length} prompts`,
  );
}

main();
