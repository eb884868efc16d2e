// `npm run pretrain -- --preset tiny|micro`: supervised warm-start of the Coder and the Tester on the curriculum's
// corpora (fixed seed), writing fp32 and int8 checkpoints + config.json + tokenizer.json to public/models/<preset>/,
// with progress and a loss curve (SVG beside the models, sparkline in the terminal).
//
// The Coder also sees a share of Tester examples, so that the self-play baseline (one model writes code and tests)
// starts from a model that can do both; the Tester is trained on Tester examples only.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { intArg, runMain } from './args';
import { parseCli } from './cli-spec';
import { PRETRAIN_SPEC } from './help/run-specs';
import { Progress } from './progress';
import { createNodeGpu } from '../gpu/node';
import { createNodeSandbox } from '../sandbox/node';
import { buildCoderCorpus, buildTesterCorpus } from '../rl/corpus';
import { preset as modelPreset, paramCount, type PresetName as ModelPreset } from '../model/config';
import { buildLayout } from '../model/layout';
import { initParams } from '../model/init';
import { trainTokenizer } from '../model/tokenizer-train';
import { loadTokenizer } from '../model/tokenizer';
import { GpuModel } from '../model/model';
import { loadCheckpointDir, writeCheckpointDir } from '../model/checkpoint-node';
import type { LoadedCheckpoint } from '../model/checkpoint';
import { presetConfig, type PresetName } from '../rl/config';
import { loadCurriculum, neededSeqLen } from '../run/lab-setup';
import { encodeExamples, sftTrain, type SftExample } from '../rl/sft';
import { Rng } from '../rl/rng';
import { lineChartSvg, sparkline } from '../analysis/plot-svg';
import { selectTrainPart, trainPartIds, type TrainPart } from '../tasks/split';
import { carriedHistory } from './pretrain-history';
import { extraFamilies, presetFamilies } from './pretrain-families';

const DEFAULTS: Record<
  'micro' | 'tiny',
  { steps: number; batch: number; lr: number; samples: number; testerShare: number }
> = {
  micro: { steps: 400, batch: 8, lr: 5e-3, samples: 8, testerShare: 0.1 },
  tiny: { steps: 700, batch: 16, lr: 1.5e-3, samples: 4, testerShare: 0.25 },
};

async function main(): Promise<number> {
  const parsed = parseCli(PRETRAIN_SPEC, process.argv.slice(2));
  if (!parsed) return 0;
  const { args } = parsed;
  const name = ((args.preset as string) ?? 'tiny') as 'micro' | 'tiny';
  if (!(name in DEFAULTS)) throw new Error(`--preset must be micro or tiny, got '${name}'`);
  const d = DEFAULTS[name];
  const steps = intArg(args, 'steps', d.steps);
  const batch = intArg(args, 'batch', d.batch);
  const lr = args.lr ? Number(args.lr) : d.lr;
  const seed = intArg(args, 'seed', 1);
  const bugRate = args['bug-rate'] ? Number(args['bug-rate']) : 0.3;
  const testerShare = args['tester-share'] ? Number(args['tester-share']) : d.testerShare;
  const out = (args.out as string) ?? join('public', 'models', name);
  const only = (args.only as string | undefined)?.split(',') ?? ['coder', 'tester'];
  const train = presetConfig(name as PresetName);
  const K = train.rollout.tests_per_group;

  const t0 = Date.now();
  // --families a,b: warm-start on these families instead of the preset's (RL then takes the same list with
  // --set tasks.families=a,b, so its RL half and the evaluation are these families' too).
  const families = presetFamilies(args.families, train.tasks.families);
  const cur = loadCurriculum(families);
  // --part sft: only the warm-start half of the training instances, so RL with tasks.train_part=rl sees new ones.
  const part = ((args.part as string | undefined) ?? 'all') as TrainPart;
  if (part !== 'all' && part !== 'sft') throw new Error(`--part must be all or sft, got '${part}'`);
  const partIds = trainPartIds(cur.train);
  const asItems = (xs: typeof cur.instances) => xs.map((i) => ({ ...i, split: i.problem.split, id: i.problem.id }));
  // --extra-families a,b: the training instances of families outside the preset join the warm-start corpus only
  // (RL and the evaluation keep the preset's families), e.g. to teach a skill the held-out family needs.
  const extra = extraFamilies(args['extra-families'], cur);
  const insts = [
    ...selectTrainPart(asItems(cur.instances), partIds, part),
    ...(extra.length ? asItems(loadCurriculum(extra).instances).filter((i) => i.split === 'train') : []),
  ];
  console.log(
    `pretrain ${name}: ${insts.length} training problems (part ${part}${extra.length ? ` + ${extra.join(', ')}` : ''}), ${steps} steps × batch ${batch}, lr ${lr}, seed ${seed}`,
  );

  const sandbox = createNodeSandbox();
  const coderData = buildCoderCorpus(insts, { seed, bugRate, samplesPerProblem: d.samples });
  console.log(`coder corpus: ${coderData.length} examples (bug rate ${bugRate})`);
  const testerData = await buildTesterCorpus(sandbox, insts, { seed, k: K, samplesPerProblem: d.samples });
  await sandbox.close();
  console.log(`tester corpus: ${testerData.length} examples (K = ${K})`);

  const base = modelPreset(name as ModelPreset);
  const config = modelPreset(name as ModelPreset, { maxSeqLen: Math.max(base.maxSeqLen, neededSeqLen(train)) });
  const tokSample = [...coderData, ...testerData].filter((_, i) => i % 3 === 0).map((e) => e.prompt + e.completion);
  // --init DIR continues from DIR/<role>/ checkpoints (same config and tokenizer) instead of a fresh init.
  const initDir = typeof args.init === 'string' ? args.init : undefined;
  const inits = new Map<string, LoadedCheckpoint>();
  for (const who of only) {
    if (initDir && existsSync(join(initDir, who, 'model.safetensors')))
      inits.set(who, await loadCheckpointDir(join(initDir, who)));
  }
  const firstInit = [...inits.values()][0];
  const tokenizerJson =
    firstInit?.tokenizerJson ?? JSON.stringify(trainTokenizer(tokSample, { vocabSize: config.vocabSize }));
  const tok = loadTokenizer(tokenizerJson);
  console.log(
    `tokenizer: vocab ${config.vocabSize}; model ${paramCount(config).toLocaleString()} params, maxSeqLen ${config.maxSeqLen}`,
  );

  const gpu = await createNodeGpu();
  const progress = new Progress();
  const curves: { name: string; x: number[]; y: number[] }[] = [];
  const runs: { model: string; loss: [number, number] }[] = [];
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  const layout = buildLayout(config);
  const mix = (a: SftExample[], b: SftExample[], share: number): SftExample[] => {
    const r = new Rng(seed);
    const nb = Math.round((a.length * share) / (1 - share));
    return [...a, ...r.sample(b.length, nb).map((i) => b[i])];
  };
  const jobs: { who: 'coder' | 'tester'; data: SftExample[] }[] = [
    { who: 'coder' as const, data: mix(coderData, testerData, testerShare) },
    { who: 'tester' as const, data: testerData },
  ].filter((j) => only.includes(j.who));
  for (const job of jobs) {
    const init = inits.get(job.who);
    if (init && init.layout.totalFloats !== layout.totalFloats)
      throw new Error(`--init ${initDir}/${job.who}: its config differs from the ${name} preset`);
    const model = new GpuModel(
      gpu,
      layout,
      init?.params ?? initParams(layout, seed + (job.who === 'tester' ? 1 : 0)),
      job.who,
    );
    if (init) console.log(`${job.who}: continuing from ${initDir}/${job.who}`);
    const encoded = encodeExamples(tok, job.data);
    const start = Date.now();
    const losses: number[] = [];
    await sftTrain(model, tok, encoded, {
      steps,
      batchSize: batch,
      lr,
      seed,
      onStep: (s, loss) => {
        losses.push(loss);
        const el = (Date.now() - start) / 1000;
        const eta = (el / (s + 1)) * (steps - s - 1);
        const recent = losses.slice(-20);
        progress.update(
          `${job.who} sft`,
          s + 1,
          steps,
          `loss ${(recent.reduce((a, b) => a + b, 0) / recent.length).toFixed(3)} ${sparkline(losses, 30)} eta ${eta.toFixed(0)}s`,
        );
      },
    });
    progress.clear();
    const tail = losses.slice(-20);
    console.log(
      `${job.who}: loss ${losses[0].toFixed(3)} → ${(tail.reduce((a, b) => a + b, 0) / tail.length).toFixed(3)} in ${((Date.now() - start) / 1000).toFixed(0)} s  ${sparkline(losses, 40)}`,
    );
    // A continued run appends to the earlier curve, so the figure shows the whole warm-start.
    let prior: number[] = [];
    if (init) {
      try {
        prior = JSON.parse(await readFile(join(initDir!, `${job.who}-losses.json`), 'utf8')) as number[];
      } catch {
        prior = [];
      }
    }
    const all = [...prior, ...losses];
    runs.push({ model: job.who, loss: [round3(losses[0]), round3(tail.reduce((a, b) => a + b, 0) / tail.length)] });
    curves.push({ name: job.who, x: all.map((_, i) => i + 1), y: all });
    await mkdir(out, { recursive: true });
    await writeFile(join(out, `${job.who}-losses.json`), JSON.stringify(all) + '\n');
    const meta = { metadata: { pretrain_steps: String(steps), seed: String(seed) }, tokenizerJson };
    await writeCheckpointDir(join(out, job.who), await model.checkpoint(meta));
    await writeCheckpointDir(join(out, `${job.who}-int8`), await model.checkpoint({ ...meta, quant: 'int8-b32' }));
    model.destroy();
  }
  gpu.destroy();
  // Curves of models trained in earlier invocations (--only) are kept in the figure.
  for (const who of ['coder', 'tester']) {
    if (curves.some((c) => c.name === who)) continue;
    try {
      const ys = JSON.parse(await readFile(join(out, `${who}-losses.json`), 'utf8')) as number[];
      curves.push({ name: who, x: ys.map((_, i) => i + 1), y: ys });
    } catch {
      // not trained yet
    }
  }
  await writeFile(
    join(out, 'pretrain-loss.svg'),
    lineChartSvg(`SFT warm-start loss (${name})`, curves, { xLabel: 'step', yLabel: 'cross-entropy (nats/token)' }),
  );
  // pretrain.json keeps the history of every invocation that shaped the shipped models (a continued warm-start
  // appends to it), so the checkpoints can be reproduced command by command.
  let history: unknown[] = [];
  try {
    history = carriedHistory(JSON.parse(await readFile(join(out, 'pretrain.json'), 'utf8')), !!initDir, only);
  } catch {
    history = [];
  }
  for (const r of runs)
    history.push({
      ...r,
      command: `npm run pretrain -- ${process.argv.slice(2).join(' ')}`,
      steps,
      batch,
      lr,
      families,
      part,
      ...(extra.length ? { extraFamilies: extra } : {}),
    });
  await writeFile(
    join(out, 'pretrain.json'),
    JSON.stringify(
      {
        preset: name,
        steps,
        batch,
        lr,
        seed,
        bugRate,
        testerShare,
        K,
        minutes: (Date.now() - t0) / 60000,
        final: Object.fromEntries(
          curves.map((c) => [c.name, c.y.slice(-20).reduce((a, b) => a + b, 0) / Math.min(20, c.y.length)]),
        ),
        history,
      },
      null,
      2,
    ) + '\n',
  );
  console.log(
    `wrote ${out}/{coder,tester}{,-int8}/ and pretrain-loss.svg in ${((Date.now() - t0) / 60000).toFixed(1)} min`,
  );
  return 0;
}

runMain(main);
