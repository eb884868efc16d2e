// The Coder's and the Tester's prompts for every exported problem, rendered as the release renders them (the Coder's
// chat from the parquet's `prompt` column, the Tester's from trainer_a1.py's turns, recorded in
// fixtures/release-tester-prompt.json) and counted with the cluster model's own tokenizer and chat template, against
// the limits the release enforces:
//   - the Coder's prompt: data.max_prompt_length (longer ones are silently dropped, filter_overlong_prompts);
//   - the Tester's prompt, the problem plus a whole Coder answer of up to data.max_response_length tokens:
//     other.data.max_prompt_length (trainer_a1.py pads it with truncation 'error': a longer one raises mid-run);
//   - vLLM's max_model_len (rollout.max_model_len, else prompt_length + response_length, the Coder's values even for
//     the Tester: main_a1.py resolves them before copying the config) and the model's max_position_embeddings.
// The export raises each limit to what the prompts need, or refuses, naming the problems that cannot fit.
import releaseTester from './fixtures/release-tester-prompt.json' with { type: 'json' };
import { problemToRow } from './dataset';
import type { Problem } from '../../tasks/types';
import type { Json } from './keys';

export type Turn = { role: string; content: string };

/** A model's tokenizer as the release applies it: the chat template with the generation prompt, then its tokens. */
export interface ChatCounter {
  /** The tokenizer's source, for messages. */
  label: string;
  count(messages: Turn[]): number;
  /** The model's max_position_embeddings, when its config.json is known. */
  maxPositions?: number;
}

/**
 * Slack for the Tester's prompt beyond template + answer tokens: the answer is decoded and encoded again inside the
 * template, where a token can split differently at its two edges.
 */
export const TESTER_SLACK = 8;

function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{\{|\}\}|\{(\w+)\}/g, (m, name: string | undefined) => {
    if (!name) return m[0];
    if (!(name in vars)) throw new Error(`internal: the release's Tester prompt has an unknown field {${name}}`);
    return vars[name];
  });
}

/** trainer_a1.py's Tester turns; a Tester path containing "sft" switches the release to its short prompt. */
export function releaseTesterMessages(cleanDescription: string, code: string, testerModel: string): Turn[] {
  const user = testerModel.includes('sft') ? releaseTester.sft : releaseTester.default;
  return [
    { role: 'system', content: releaseTester.system },
    { role: 'user', content: fill(user, { clean_description: cleanDescription, generated_code: code }) },
  ];
}

export interface Longest {
  tokens: number;
  id: string;
}

export interface PromptLengths {
  /** The longest Coder prompt, training and validation problems. */
  coder: Longest;
  /** The longest Tester prompt without the Coder's answer (training problems: validation runs no Tester). */
  testerTemplate: Longest;
  /** Every problem's counts, for a refusal that names them. */
  perProblem: { id: string; coder: number; testerTemplate?: number }[];
  /** For messages: the tokenizers used. */
  label: string;
  maxPositions?: number;
}

export function measurePrompts(
  sets: { train: readonly Problem[]; val: readonly Problem[] },
  coder: ChatCounter,
  tester: ChatCounter,
  testerModel: string,
): PromptLengths {
  const perProblem: PromptLengths['perProblem'] = [];
  let c: Longest = { tokens: 0, id: '' };
  let t: Longest = { tokens: 0, id: '' };
  for (const [problems, train] of [
    [sets.train, true],
    [sets.val, false],
  ] as const)
    for (const p of problems) {
      const row = problemToRow(p, train);
      const n = coder.count(row.prompt);
      if (n > c.tokens) c = { tokens: n, id: p.id };
      const rec: PromptLengths['perProblem'][number] = { id: p.id, coder: n };
      if (train) {
        rec.testerTemplate = tester.count(releaseTesterMessages(row.clean_description ?? '', '', testerModel));
        if (rec.testerTemplate > t.tokens) t = { tokens: rec.testerTemplate, id: p.id };
      }
      perProblem.push(rec);
    }
  const mp = [coder.maxPositions, tester.maxPositions].filter((x): x is number => x !== undefined);
  return {
    coder: c,
    testerTemplate: t,
    perProblem,
    label: coder.label === tester.label ? coder.label : `${coder.label} / ${tester.label}`,
    maxPositions: mp.length ? Math.min(...mp) : undefined,
  };
}

/**
 * The limits the prompts need: each key raised where it is short (never lowered), with one note per raise. Throws,
 * naming the problems, when the model's context cannot hold them.
 */
export function sizePromptLimits(
  flat: Record<string, Json>,
  m: PromptLengths,
): { set: Record<string, number>; notes: string[] } {
  const set: Record<string, number> = {};
  const notes: string[] = [];
  const num = (k: string) => (set[k] ?? flat[k]) as number;
  const response = num('data.max_response_length');
  const raise = (key: string, need: number, why: string) => {
    if (num(key) >= need) return;
    notes.push(`${key} raised from ${num(key)} to ${need} (${m.label} tokens): ${why}`);
    set[key] = need;
  };
  raise(
    'data.max_prompt_length',
    m.coder.tokens,
    `the longest Coder prompt (${m.coder.id}) is ${m.coder.tokens} tokens; the release drops longer prompts (filter_overlong_prompts)`,
  );
  const tester = m.testerTemplate.tokens + response + TESTER_SLACK;
  raise(
    'other.data.max_prompt_length',
    tester,
    `the Tester's prompt is the problem (${m.testerTemplate.tokens} tokens at most, ${m.testerTemplate.id}) plus a Coder answer of up to ${response} tokens; trainer_a1.py raises on a longer one (truncation: error)`,
  );
  // The Tester's vLLM engine has max_model_len = the Coder's prompt_length + response_length unless set, and refuses
  // a longer prompt: then it gets room for the prompt and a whole answer.
  const modelLen =
    (flat['actor_rollout_ref.rollout.max_model_len'] as number | null) ?? num('data.max_prompt_length') + response;
  if (tester > modelLen) {
    set['actor_rollout_ref.rollout.max_model_len'] = tester + response;
    notes.push(
      `actor_rollout_ref.rollout.max_model_len set to ${tester + response}: vLLM's default (data.max_prompt_length + data.max_response_length = ${modelLen}) is shorter than the Tester's longest prompt (${tester}), which vLLM refuses`,
    );
  }
  if (m.maxPositions !== undefined) {
    const need = Math.max(
      num('data.max_prompt_length') + response,
      set['actor_rollout_ref.rollout.max_model_len'] ?? 0,
    );
    if (need > m.maxPositions) {
      const budget = m.maxPositions - response;
      const bad = m.perProblem
        .filter((p) => p.coder > budget || (p.testerTemplate ?? 0) + 2 * response + TESTER_SLACK > m.maxPositions!)
        .map((p) => p.id);
      throw new Error(
        `the model's context (max_position_embeddings ${m.maxPositions}) cannot hold prompts plus ${response}-token answers${bad.length ? `; problems that do not fit: ${bad.join(', ')}` : ` (the limits need ${need})`} — lower rollout.max_completion_length or leave these problems out`,
      );
    }
  }
  return { set, notes };
}
