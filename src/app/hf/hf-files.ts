// A Hugging Face model picked by the user (a folder, or several files) or fetched from the hub, checked before it is
// accepted: config.json, the safetensors headers and the tokenizer with its chat template. No weight is read here; the
// Worker imports the weights when the run starts.
import { blobSource } from '../../model/hf/source';
import { checkHfModel } from '../../model/hf/import';
import { loadHfTokenizer } from '../../model/hf/tokenizer';
import { INDEX_FILE, SINGLE_FILE } from '../../model/hf/safetensors-stream';

/** Where a model came from, saved with the run (hf.json) so a reload finds it again. */
export type HfOrigin = { kind: 'files' } | { kind: 'hub'; repo: string; revision: string; endpoint: string };

/** A checked model, ready to go to the Worker (Blobs are passed by reference, not copied). */
export interface HfModelSpec {
  label: string;
  origin: HfOrigin;
  files: Record<string, Blob>;
  /** One line for the panel: layers, width, parameters, size. */
  summary: string;
}

/**
 * Picked files by path inside the model folder: a folder picker's files carry `folder/…` in webkitRelativePath (the
 * folder's own name is dropped), plain multi-select files only their name.
 */
export function pickedFiles(list: ArrayLike<File>): Map<string, Blob> {
  const out = new Map<string, Blob>();
  for (const f of Array.from(list)) {
    const rel = f.webkitRelativePath ? f.webkitRelativePath.split('/').slice(1).join('/') : f.name;
    out.set(rel || f.name, f);
  }
  return out;
}

const mib = (n: number) => `${(n / 2 ** 20).toFixed(n < 2 ** 20 ? 2 : 1)} MiB`;

/** Checks a model's files; throws an error that names what is wrong and what to pick. */
export async function checkHfFiles(files: Map<string, Blob>, label: string, origin: HfOrigin): Promise<HfModelSpec> {
  const missing = ['config.json', 'tokenizer.json'].filter((n) => !files.has(n));
  if (!files.has(SINGLE_FILE) && !files.has(INDEX_FILE))
    missing.push(`${SINGLE_FILE} (or ${INDEX_FILE} with its shards)`);
  if (missing.length)
    throw new Error(
      `${label}: missing ${missing.join(', ')}; pick the model folder, or config.json, tokenizer.json, tokenizer_config.json and the safetensors together`,
    );
  const src = blobSource(files, label);
  const s = await checkHfModel(src);
  const tok = await loadHfTokenizer(src);
  if (!tok.chatTemplate)
    throw new Error(
      `${label}: the tokenizer has no chat template (no chat_template.jinja, none in tokenizer_config.json): LoRA runs need an instruct model`,
    );
  if (!tok.stopTokenIds.length) throw new Error(`${label}: tokenizer_config.json names no eos token`);
  const c = s.info.config;
  const params = s.params >= 1e6 ? `${(s.params / 1e6).toFixed(1)} M` : `${(s.params / 1e3).toFixed(1)} k`;
  return {
    label,
    origin,
    files: Object.fromEntries(files),
    summary: `${c.layers} layers, hidden ${c.hidden}, vocab ${c.vocabSize}, ${params} parameters, ${mib(s.bytes)} in ${s.files.length} safetensors file${s.files.length > 1 ? 's' : ''}`,
  };
}
