// HF tokenizer folder: ids identical to the `tokenizers` library's, chat template output identical to transformers'
// apply_chat_template (fixtures from scripts/hf-reference.py), in both places a template can live.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIXTURE_ROOT, fixtureSource, readReference } from './fixtures-node';
import { blobSource } from './source';
import { loadHfTokenizer } from './tokenizer';

const ref = readReference();

describe('HF tokenizer and chat template vs tokenizers / transformers', () => {
  it('token ids and decoded text are identical for code, whitespace, contractions, Unicode and special tokens', async () => {
    const tok = await loadHfTokenizer(fixtureSource('tokenizer'));
    expect(tok.tokenizer.vocabSize).toBe(ref.tokenizer_vocab);
    for (const t of ref.tokenizer.texts) {
      expect(tok.tokenizer.encode(t.text), JSON.stringify(t.text)).toEqual(t.ids);
      expect(tok.tokenizer.decode(t.ids)).toBe(t.decoded);
    }
  });

  it('special tokens and stop ids come from tokenizer_config.json', async () => {
    const tok = await loadHfTokenizer(fixtureSource('qwen2-tied-gqa-f32'));
    expect(tok.specialTokens.eos).toBe('<|im_end|>');
    expect(tok.specialTokens.pad).toBe('<|endoftext|>');
    expect(tok.stopTokenIds[0]).toBe(tok.tokenizer.requireId('<|im_end|>'));
    expect(tok.padId).toBe(tok.tokenizer.requireId('<|endoftext|>'));
  });

  it('chat_template.jinja renders exactly what apply_chat_template rendered (tool calls included), and the same ids', async () => {
    const tok = await loadHfTokenizer(fixtureSource('tokenizer'));
    for (const c of ref.tokenizer.chats) {
      const opts = { addGenerationPrompt: c.add_generation_prompt, tools: c.tools };
      expect(tok.applyChatTemplate(c.messages, opts)).toBe(c.rendered);
      expect(tok.encodeChat(c.messages, opts)).toEqual(c.ids);
    }
  });

  it('a transformers 4.x folder (template inside tokenizer_config.json, AddedToken objects) renders the same', async () => {
    const dir = `${FIXTURE_ROOT}tokenizer/`;
    const cfg = JSON.parse(readFileSync(dir + 'tokenizer_config.json', 'utf8')) as Record<string, unknown>;
    const v4 = {
      ...cfg,
      chat_template: [{ name: 'default', template: readFileSync(dir + 'chat_template.jinja', 'utf8') }],
      eos_token: {
        content: '<|im_end|>',
        lstrip: false,
        normalized: false,
        rstrip: false,
        single_word: false,
        special: true,
      },
    };
    const src = blobSource(
      new Map([
        ['tokenizer.json', new Blob([readFileSync(dir + 'tokenizer.json')])],
        ['tokenizer_config.json', new Blob([JSON.stringify(v4)])],
      ]),
    );
    const tok = await loadHfTokenizer(src);
    expect(tok.specialTokens.eos).toBe('<|im_end|>');
    for (const c of ref.tokenizer.chats)
      expect(tok.applyChatTemplate(c.messages, { addGenerationPrompt: c.add_generation_prompt, tools: c.tools })).toBe(
        c.rendered,
      );
  });

  it('refuses a folder without tokenizer.json, and chat without a template, by name', async () => {
    await expect(loadHfTokenizer(blobSource(new Map(), 'empty'))).rejects.toThrow(/empty: no tokenizer\.json/);
    const bare = blobSource(
      new Map([['tokenizer.json', new Blob([readFileSync(`${FIXTURE_ROOT}tokenizer/tokenizer.json`)])]]),
      'bare',
    );
    const tok = await loadHfTokenizer(bare);
    expect(() => tok.applyChatTemplate([{ role: 'user', content: 'hi' }])).toThrow(
      /bare: the tokenizer has no chat template/,
    );
  });
});
