// `npm run export -- --run runs/NAME [--model coder|tester] --onnx out.onnx` (or `--checkpoint DIR`): a lab
// checkpoint → ONNX (opset 17), fp32 or quantized, optionally with a KV cache; `--check` verifies it on
// onnxruntime-web's wasm EP against the float64 reference on random tokens before reporting success.
// With `--verl OUT/` it exports the experiment for the published Code-A1 recipe on verl instead (export-verl.ts).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as ort from 'onnxruntime-web';
import { parseCli } from './cli-spec';
import { EXPORT_SPEC } from './help/model-specs';
import { runMain, UsageError } from './args';
import { loadCheckpointDir } from '../model/checkpoint-node';
import { CONFIG_FILE, loadCheckpoint, saveCheckpoint, WEIGHTS_FILE } from '../model/checkpoint';
import { exportOnnx, ONNX_QUANTS, type OnnxQuant } from '../model/onnx';
import { createOrtSession, ortLogits } from '../model/onnx/ort-run';
import { referenceForward, toF64 } from '../model/reference';
import { maxRelDiff, mulberry32 } from '../testing/random';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.some((a) => a === '--verl' || a.startsWith('--verl=')))
    return (await import('./export-verl')).exportVerlCli(argv);
  const parsed = parseCli(EXPORT_SPEC, argv);
  if (!parsed) return;
  const { args } = parsed;
  const out = args.onnx;
  if (typeof out !== 'string') throw new UsageError('--onnx out.onnx is required (or --verl OUT/; see --help)');
  const role = typeof args.model === 'string' ? args.model : 'coder';
  if (role !== 'coder' && role !== 'tester') throw new UsageError(`--model must be coder or tester, got '${role}'`);
  let dir: string;
  if (typeof args.checkpoint === 'string') dir = args.checkpoint;
  else if (typeof args.run === 'string') dir = join(args.run, 'latest', role);
  else throw new UsageError('give --run or --checkpoint (see --help)');
  const ck = await loadCheckpointDir(dir);
  let quant: OnnxQuant | undefined = ck.quantFormat;
  if (typeof args.quant === 'string') {
    if (args.quant === 'fp32') quant = undefined;
    else if ((ONNX_QUANTS as readonly string[]).includes(args.quant)) quant = args.quant as OnnxQuant;
    else throw new UsageError(`--quant must be fp32 or one of ${ONNX_QUANTS.join(', ')}, got '${args.quant}'`);
  }
  const t0 = performance.now();
  const bytes = exportOnnx(ck.params, ck.layout, {
    kvCache: !!args.kv,
    attentionMask: !!args['attention-mask'],
    quant,
    name: `code_a1_${role}`,
    metadata: { role, source: dir, ...ck.metadata },
  });
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, bytes);
  const c = ck.config;
  console.log(
    `wrote ${out}: ${(bytes.byteLength / 1e6).toFixed(2)} MB, ${ck.layout.paramCount} params, ${quant ?? 'fp32'}${args.kv ? ', KV cache' : ''}${args['attention-mask'] ? ', attention_mask + position_ids' : ''}, ` +
      `opset 17, vocab ${c.vocabSize}, max positions ${c.maxSeqLen} (${((performance.now() - t0) / 1000).toFixed(2)} s) from ${dir}`,
  );
  if (ck.tokenizerJson !== undefined) console.log(`tokenizer: ${join(dir, 'tokenizer.json')} (input_ids are its ids)`);
  if (args.check) {
    if (args.kv || args['attention-mask'])
      throw new Error('--check verifies the plain full form; export without --kv / --attention-mask to check');
    ort.env.wasm.numThreads = 1;
    const S = Math.min(16, c.maxSeqLen);
    const rng = mulberry32(12345);
    const tokens = Int32Array.from({ length: S }, () => Math.floor(rng() * c.vocabSize));
    const session = await createOrtSession(bytes, 'wasm');
    const got = await ortLogits(session, tokens, 1, S);
    // The reference runs on exactly the weights the export holds: the checkpoint's, re-rounded through quant.ts when
    // the export quantizes differently (an int8 export of fp32 weights is checked against its own dequantized codes).
    const requantized = quant !== undefined && quant !== ck.quantFormat;
    const files = requantized ? saveCheckpoint(ck.layout, ck.params, { quant }) : undefined;
    const weights = files
      ? loadCheckpoint({ weights: files[WEIGHTS_FILE], config: files[CONFIG_FILE] }).params
      : ck.params;
    const ref = (p: Float32Array) => referenceForward(ck.layout, toF64(p), { batch: 1, seqLen: S, tokens }).logits;
    const diff = maxRelDiff(got, ref(weights));
    const ok = diff < 1e-4;
    const drift = requantized
      ? `; ${quant} rounding moves logits ${maxRelDiff(got, ref(ck.params)).toExponential(2)} from the checkpoint's weights`
      : '';
    console.log(
      `check (onnxruntime-web wasm EP vs float64 reference, ${S} random tokens): max rel diff ${diff.toExponential(2)} ${ok ? 'ok' : 'FAILED'}${drift}`,
    );
    await session.release();
    if (!ok) process.exitCode = 1;
  }
}

runMain(main);
