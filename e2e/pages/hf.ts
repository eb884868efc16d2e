// Browser side of e2e/hf.spec.ts: a Hugging Face Qwen2 fixture fetched from a server with the hub's URL layout
// (range requests), imported with progress, its tokenizer and chat template loaded, and run on navigator.gpu.
import { createBrowserGpu } from '../../src/gpu/browser';
import { destroyBatch, uploadBatch } from '../../src/model/forward-batch';
import { computeLogits } from '../../src/model/forward-logprobs';
import { fp32Weights } from '../../src/model/decode-weights';
import { GpuModel } from '../../src/model/model';
import { generate } from '../../src/model/sampler';
import { importHfModel } from '../../src/model/hf/import';
import { hubSource } from '../../src/model/hf/source-hub';
import { loadHfTokenizer, type ChatMessage } from '../../src/model/hf/tokenizer';

export interface HfPageInput {
  endpoint: string;
  repo: string;
  prompts: { text: string; ids: number[] }[];
  chats: { messages: ChatMessage[]; tools?: unknown[]; add_generation_prompt: boolean }[];
}

export interface HfPageResult {
  progress: number[];
  ids: number[][];
  rendered: string[];
  /** Logits [S, V] per prompt, flattened. */
  logits: number[][];
  greedy: number[][];
}

async function run(input: HfPageInput): Promise<HfPageResult> {
  const src = hubSource({ repo: input.repo, endpoint: input.endpoint });
  const progress: number[] = [];
  const m = await importHfModel(src, { maxSeqLen: 64, onProgress: (p) => progress.push(p.bytesDone / p.bytesTotal) });
  const tok = await loadHfTokenizer(src);
  const gpu = await createBrowserGpu();
  const model = GpuModel.fromCheckpoint(gpu, m, 'hf-page');
  const logits: number[][] = [];
  for (const p of input.prompts) {
    const batch = uploadBatch(gpu, { batch: 1, seqLen: p.ids.length, tokens: p.ids });
    logits.push(Array.from(await computeLogits(model, batch)));
    destroyBatch(batch);
  }
  const greedy: number[][] = [];
  for (const p of input.prompts) {
    const [s] = await generate(fp32Weights(model), [p.ids], {
      maxNewTokens: 12,
      temperature: 0,
      seed: 1,
      stopTokenIds: [],
    });
    greedy.push(s.tokens);
  }
  model.destroy();
  return {
    progress,
    ids: input.prompts.map((p) => tok.tokenizer.encode(p.text)),
    rendered: input.chats.map((c) =>
      tok.applyChatTemplate(c.messages, { addGenerationPrompt: c.add_generation_prompt, tools: c.tools }),
    ),
    logits,
    greedy,
  };
}

(globalThis as unknown as { hfChecks: typeof run }).hfChecks = run;
