// Help and flags of the commands that move models and runs in and out of the lab: export, import-run, hf.
import type { CliSpec } from '../cli-spec';

export const EXPORT_SPEC: CliSpec = {
  command: 'npm run export',
  summary: 'a Coder or Tester to ONNX (--onnx), or a run to the published recipe on verl / Ray (--verl)',
  usage: [
    'npm run export -- (--run runs/NAME [--model coder|tester] | --checkpoint DIR) --onnx out.onnx [--quant Q] [--kv]',
    'npm run export -- (--run runs/NAME | --preset P | --tasks FILE.jsonl) --verl OUT/ ...   (see --verl --help)',
  ],
  flags: [
    { name: 'run', value: 'DIR', help: 'a run directory; exports <run>/latest/<model>' },
    { name: 'checkpoint', value: 'DIR', help: 'a checkpoint directory (model.safetensors + config.json)' },
    { name: 'model', value: 'coder|tester', help: 'which model of the run (default coder)' },
    { name: 'onnx', value: 'FILE', help: 'the ONNX file to write' },
    {
      name: 'quant',
      value: 'fp32|int8-row|...',
      help: "weight format of the Linear layers (default: the checkpoint's own; an unknown value lists them)",
    },
    { name: 'kv', help: 'add past_key_values inputs and present outputs for generation' },
    {
      name: 'attention-mask',
      help: 'add attention_mask [B, past+S] and position_ids [B, S] inputs (left-padded batches)',
    },
    { name: 'check', help: 'run the export on onnxruntime-web (wasm) against the float64 reference' },
    {
      name: 'verl',
      value: 'OUT/',
      help: 'export for a GPU cluster instead (its flags: `npm run export -- --verl --help`)',
    },
  ],
  modes: ['--verl'],
  examples: ['npm run export -- --run runs/a1 --onnx coder.onnx --kv --check'],
};

export const IMPORT_RUN_SPEC: CliSpec = {
  command: 'npm run import-run',
  summary: 'a cluster run\'s console log (or W&B history) into metrics.jsonl, to overlay with "Compare with..."',
  usage: ['npm run import-run -- --verl-logs DIR|FILE [--out runs/NAME]'],
  flags: [
    {
      name: 'verl-logs',
      value: 'DIR|FILE',
      help: "the export's logs/ folder, or one console log (.log/.txt/.out) or W&B history (.jsonl)",
    },
    { name: 'out', value: 'DIR', help: 'run folder to write metrics.jsonl to (default runs/<folder>-cluster)' },
    { name: 'force', help: 'replace the metrics.jsonl an --out folder already holds (refused otherwise)' },
  ],
  examples: ['npm run import-run -- --verl-logs out/tiny-verl/logs --out runs/tiny-cluster'],
};

export const HF_SPEC: CliSpec = {
  command: 'npm run hf',
  summary: 'Hugging Face Qwen2 models: inspect (shape, tokenizer, memory plan, load) and export',
  usage: ['npm run hf -- inspect SRC ...', 'npm run hf -- export ...'],
  flags: [],
  subcommands: ['inspect', 'export'],
  examples: ['npm run hf -- inspect fixtures/hf/tiny-tied --load'],
};

export const HF_INSPECT_SPEC: CliSpec = {
  command: 'npm run hf -- inspect',
  summary: 'check a Hugging Face Qwen2 folder or hub repo: shape, tensors, tokenizer, the memory plan of a LoRA run',
  usage: [
    'npm run hf -- inspect SRC [--load [--weights W]] [--seq 2048 --rollout 8 --micro 4 --rank 16 --budget-gb 8]',
  ],
  positional: 'SRC: a folder, or hub:owner/name',
  flags: [
    { name: 'revision', value: 'REV', help: 'hub revision (default main)' },
    { name: 'endpoint', value: 'URL', help: "a server with the hub's URL layout" },
    { name: 'token', value: 'T', help: 'hub token for gated repos' },
    { name: 'load', help: 'import every tensor, with progress' },
    { name: 'weights', value: 'f32|f16|int8|int4-b32', help: 'with --load: weight format (f16 needs shader-f16)' },
    { name: 'seq', value: 'N', help: 'memory plan: sequence length (default 2048)' },
    { name: 'rollout', value: 'N', help: 'memory plan: rollouts decoded at once (default 8)' },
    { name: 'micro', value: 'N', help: 'memory plan: micro-batch (default 4)' },
    { name: 'rank', value: 'N', help: 'memory plan: LoRA rank (default 16)' },
    { name: 'base', value: 'FORMAT', help: 'memory plan: base weight format (default int4-b32)' },
    { name: 'budget-gb', value: 'X', help: 'memory plan: budget; a plan over it is refused with one that fits' },
  ],
  examples: ['npm run hf -- inspect fixtures/hf/tiny-tied --load --weights int4-b32'],
};

export const HF_EXPORT_SPEC: CliSpec = {
  command: 'npm run hf -- export',
  summary: 'a lab checkpoint as a Hugging Face Qwen2 folder (config, safetensors, tokenizer), re-imported to check',
  usage: ['npm run hf -- export (--run runs/NAME [--model coder|tester] | --checkpoint DIR) --out DIR [--dtype D]'],
  flags: [
    { name: 'run', value: 'DIR', help: 'a run directory (its latest/<model>)' },
    { name: 'checkpoint', value: 'DIR', help: 'a checkpoint directory' },
    { name: 'model', value: 'coder|tester', help: 'which model of the run (default coder)' },
    { name: 'out', value: 'DIR', help: 'the folder to write' },
    { name: 'dtype', value: 'f32|bf16|f16', help: 'tensor dtype (default f32)' },
    { name: 'max-shard-mb', value: 'N', help: 'split the safetensors into shards of at most N MB' },
  ],
  examples: ['npm run hf -- export --run runs/a1 --out exports/a1-coder --dtype bf16'],
};

export const EXPORT_VERL_SPEC: CliSpec = {
  command: 'npm run export -- --verl',
  summary: 'an experiment as a run of the published Code-A1 recipe on verl / Ray: parquet data, config, launch.sh',
  usage: [
    'npm run export -- (--run runs/NAME | --preset paper|tiny|micro | --tasks FILE.jsonl) --verl OUT/',
    '                  [--coder-model HF_ID|DIR] [--tester-model HF_ID|DIR] [--nodes 1] [--gpus-per-node 8] ...',
  ],
  flags: [
    { name: 'verl', value: 'OUT/', help: 'the folder to write' },
    { name: 'run', value: 'DIR', help: 'a lab run: its config.json and its curriculum (held-out problems to val)' },
    { name: 'preset', value: 'P', help: "a preset's config and curriculum (with --tasks default: paper)" },
    { name: 'tasks', value: 'FILE.jsonl', help: 'a HumanEval- or MBPP-format file instead of the curriculum' },
    { name: 'coder-model', value: 'HF_ID|DIR', help: 'the Coder: a Hugging Face id or an HF-format folder' },
    { name: 'tester-model', value: 'HF_ID|DIR', help: "the Tester (default: the Coder's)" },
    { name: 'nodes', value: 'N', help: 'cluster nodes (default 1)' },
    { name: 'gpus-per-node', value: 'N', help: 'GPUs per node, split between the Coder and the Tester (default 8)' },
    { name: 'name', value: 'NAME', help: "experiment name (default: the run's or the folder's)" },
    { name: 'steps', value: 'N', help: "trainer.total_training_steps (default: the release's 3 epochs)" },
    { name: 'val-fraction', value: 'X', help: 'with --tasks: the share that goes to val.parquet (default 0.2)' },
    {
      name: 'release-hparams',
      help: "the release's values (its config for the Coder's size: 1.5B, 3B or 7B) for every hyperparameter; only the problems, the models and the cluster shape come from the lab",
    },
    {
      name: 'tokenizer',
      value: 'DIR',
      help: "a folder with the models' tokenizer.json (and chat template, config.json): every prompt is counted with it (default: the model folder's, or the Hub's for an id) and the prompt limits sized to fit",
    },
    { name: 'set', value: 'group.key=value', help: 'override config fields (with --preset / --tasks)' },
  ],
  notes: ['docs/verl-export.md gives the multi-node procedure and what the export checks.'],
  examples: ['npm run export -- --preset tiny --verl out/tiny-verl --nodes 1 --gpus-per-node 8'],
};
