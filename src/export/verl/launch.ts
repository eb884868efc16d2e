// launch.sh and README.md of a verl export: the release's own launch steps (code/rl/run/*_A1.sh), sized by the
// export's node and GPU counts, and what a user needs to install, run and bring back.
import type { VerlConfig, VerlConfigOptions } from './config-yaml';
import type { ProblemSets } from './dataset';

/** The release's model paths that are local folders: every node must have them at the same path. */
function localModels(o: VerlConfigOptions): string[] {
  return [...new Set([o.coderModel, o.testerModel].filter((m) => m.startsWith('/')))];
}

/**
 * launch.sh: refuses before any GPU time is spent when the release folder, the sandbox, the GPUs or (on several
 * nodes) the Ray cluster or what its workers see is missing. Ray's workers inherit the environment of the `ray start`
 * that spawned their node's raylet, not the launching shell's, so on several nodes Ray is started by this script
 * (`ray-head` / `ray-worker`), with the run's environment, and preflight.py checks it on every node.
 */
export function launchScript(o: VerlConfigOptions): string {
  const half = o.gpusPerNode / 2;
  const models = localModels(o);
  return `#!/bin/bash
# Runs this export with the published Code-A1 recipe (github.com/ZJU-REAL/Code-A1) the way its
# code/rl/run/*_A1.sh scripts do, on ${o.nodes} node(s) x ${o.gpusPerNode} GPUs: the Coder trains on ${half} GPU(s) of each
# node, the Tester on the other ${half}.
#   export CODE_A1_DIR=/path/to/Code-A1/Code-A1 SANDBOX_FUSION_ENDPOINT=http://HOST:8080
#   bash launch.sh                         # one node: checks, then trains${
    o.nodes > 1
      ? `
#   bash launch.sh ray-head                # several nodes: first on this node (starts Ray's head),
#   bash launch.sh ray-worker HEAD_IP:6379 # then on each other node, with this folder and the release at the same paths,
#   bash launch.sh                         # then here: checks every node, then trains`
      : ''
  }
set -euo pipefail
EXPORT_DIR="$(cd "$(dirname "$0")" && pwd)"
NNODES=${o.nodes}
GPUS_PER_NODE=${o.gpusPerNode}
die() {
  echo "launch.sh: $*" >&2
  exit 1
}
cmd="\${1:-run}"
case "$cmd" in
  run | ray-head | ray-worker) ;;
  *) die "unknown command '$cmd' (run, ray-head, ray-worker HEAD_IP:PORT)" ;;
esac
if [ -z "\${CODE_A1_DIR:-}" ]; then
  die "set CODE_A1_DIR to the Code-A1 folder of the release (it holds code/rl/main_a1.py and .venv-rl)"
fi
if [ ! -f "$CODE_A1_DIR/code/rl/main_a1.py" ] || [ ! -f "$CODE_A1_DIR/.venv-rl/bin/activate" ]; then
  die "CODE_A1_DIR=$CODE_A1_DIR has no code/rl/main_a1.py or .venv-rl: clone the release and run its rl_env.sh first"
fi
if [ -z "\${SANDBOX_FUSION_ENDPOINT:-}" ]; then
  die "set SANDBOX_FUSION_ENDPOINT to a sandbox_fusion server (http://HOST:PORT); without it every reward is 0"
fi
case "$SANDBOX_FUSION_ENDPOINT" in
  http://* | https://*) ;;
  *) die "SANDBOX_FUSION_ENDPOINT=$SANDBOX_FUSION_ENDPOINT is not an http(s):// address" ;;
esac
if ! command -v nvidia-smi >/dev/null 2>&1; then
  die "nvidia-smi is not on PATH: this node has no NVIDIA driver; the export needs $GPUS_PER_NODE GPUs per node"
fi
have=$(nvidia-smi -L | grep -c '^GPU ' || true)
if [ "$have" -lt "$GPUS_PER_NODE" ]; then
  die "this node has $have GPU(s); the export is sized for $GPUS_PER_NODE per node (export again with --gpus-per-node)"
fi
# The run's environment. Ray's workers get it from the "ray start" of their node (ray-head / ray-worker below),
# or, on one node without a running Ray, from main_a1.py's own ray.init.
export CODE_A1_DIR SANDBOX_FUSION_ENDPOINT
export CODE_A1_EXPORT_DIR="$EXPORT_DIR"
export CODE_A1_LOCAL_MODELS="${models.join(':')}"
# main_a1.py replaces the config's prefix by $PREFIX: data, logs and checkpoints live in this folder.
export PREFIX="$EXPORT_DIR"
# Without a W&B key, wandb logs offline (wandb sync uploads later); the console log is what import-run reads.
if [ -z "\${WANDB_API_KEY:-}" ]; then export WANDB_MODE=offline; fi
# shellcheck disable=SC1091
source "$CODE_A1_DIR/.venv-rl/bin/activate"
python "$EXPORT_DIR/preflight.py" sandbox
case "$cmd" in
  ray-head) exec ray start --head --port=6379 --num-gpus="$GPUS_PER_NODE" ;;
  ray-worker)
    if [ -z "\${2:-}" ]; then die "usage: bash launch.sh ray-worker HEAD_IP:PORT"; fi
    exec ray start --address="$2" --num-gpus="$GPUS_PER_NODE"
    ;;
esac
if [ "$NNODES" -gt 1 ]; then
  python "$EXPORT_DIR/preflight.py" cluster "$NNODES" "$GPUS_PER_NODE"
else
  # A Ray already running here would be joined by main_a1.py: its workers must have the run's environment too.
  python "$EXPORT_DIR/preflight.py" cluster 1 "$GPUS_PER_NODE" --if-running
fi
mkdir -p "$EXPORT_DIR/logs"
cd "$CODE_A1_DIR"
uv run "$CODE_A1_DIR/code/rl/main_a1.py" "$EXPORT_DIR/config.yaml" 2>&1 | tee "$EXPORT_DIR/logs/console.log"
`;
}

export function exportReadme(o: VerlConfigOptions, sets: ProblemSets, cfg: VerlConfig): string {
  const f = cfg.flat;
  const total = o.nodes * o.gpusPerNode;
  return `# ${o.experimentName}: a Code-A1 Lab experiment for the published Code-A1 recipe (verl / Ray)

This folder runs the lab experiment on GPUs with the engine the Code-A1 paper used: the release's two-model trainer
(\`code/rl/main_a1.py\` of github.com/ZJU-REAL/Code-A1, on its verl 0.4 fork with FSDP2, vLLM and Ray).

| file | what it is |
| --- | --- |
| \`train.parquet\` | ${sets.train.length} training problems from ${sets.origin}, in the release's data format |
| \`val.parquet\` | ${sets.val.length} validation problems (the Coder's pass rate is measured on them every \`trainer.test_freq\` steps) |
| \`config.yaml\` | the release's config format; every lab setting is written to its key (marked \`lab FIELD\`), settings with no key are listed at the top |
| \`launch.sh\` | the release's launch steps, sized for ${o.nodes} node(s) x ${o.gpusPerNode} GPUs; refuses to start when anything the run needs is missing |
| \`preflight.py\` | launch.sh's checks that need Python: the sandbox runs code, and (Ray) every node's workers have the run's environment and paths |

Models: the Coder is \`${String(f['actor_rollout_ref.model.path'])}\`, the Tester \`${String(f['other.actor_rollout_ref.model.path'])}\`
(Hugging Face ids or directories, set with \`--coder-model\` / \`--tester-model\` when exporting). The lab's own small
models are not in Hugging Face format; their export to it is a separate feature of the lab, after which the exported
folders can be named here. A Tester path containing \`sft\` switches the release to its short SFT Tester prompt.

## Install (once per machine)

1. Clone the release: \`git clone https://github.com/ZJU-REAL/Code-A1\` and run its \`Code-A1/rl_env.sh\` (Python 3.10,
   uv; it builds \`.venv-rl\` with its verl fork, vLLM, Ray and sandbox_fusion).
2. Start a [sandbox_fusion](https://github.com/bytedance/SandboxFusion) server the nodes can reach; the rewards run
   every candidate and test there. \`Code-A1/test_sandbox.sh\` checks it.

## Run on ${total} GPU(s)

${
  o.nodes > 1
    ? `Every node needs the release (with its \`.venv-rl\`) and this folder at the same paths (a shared file system is best:
otherwise each node keeps the checkpoint shards its own GPUs save), and must reach the sandbox_fusion server.

\`\`\`sh
# on every node
export CODE_A1_DIR=/path/to/Code-A1/Code-A1 SANDBOX_FUSION_ENDPOINT=http://HOST:8080   # and WANDB_API_KEY to log online
# 1. on the head node: starts Ray's head with the run's environment (Ray's workers take it from \`ray start\`)
bash launch.sh ray-head
# 2. on each of the other ${o.nodes - 1} node(s)
bash launch.sh ray-worker HEAD_IP:6379
# 3. on the head node: checks every node, then trains
bash launch.sh
\`\`\``
    : `\`\`\`sh
CODE_A1_DIR=/path/to/Code-A1/Code-A1 SANDBOX_FUSION_ENDPOINT=http://HOST:8080 bash launch.sh
\`\`\``
}

Before any GPU time is spent, launch.sh refuses (one line saying what to fix) when: \`CODE_A1_DIR\` is unset or not the
release; \`SANDBOX_FUSION_ENDPOINT\` is unset, not an http(s) address, or the server there does not run
\`print(6 * 7)\` (the release's reward would score every rollout 0); this node has fewer than ${o.gpusPerNode} GPUs; ${
    o.nodes > 1
      ? `no Ray cluster runs, it has fewer than ${o.nodes} nodes or ${total} GPUs, or on some node Ray's workers lack
the sandbox address, the W&B mode, the export folder (same config.yaml) or the release at the same path, or cannot reach
the sandbox.`
      : 'a Ray already running on this node (which main_a1.py would join) has workers without the sandbox address.'
  }

The release gives each model its own Ray resource pool: the Coder gets \`trainer.n_gpus_per_node\`
(${String(f['trainer.n_gpus_per_node'])}) and the Tester \`other.trainer.n_gpus_per_node\` (${String(f['other.trainer.n_gpus_per_node'])})
GPUs on each of \`trainer.nnodes\` (${String(f['trainer.nnodes'])}) node(s). For another machine size, export again with
\`--nodes N --gpus-per-node G\` (G even).
Set \`WANDB_API_KEY\` to log to Weights & Biases (project \`${String(f['trainer.project_name'])}\`); without it wandb logs offline.

Checkpoints go to \`checkpoints/model_a\` (Coder) and \`checkpoints/model_b\` (Tester), rollouts and the Mistake Book to
\`logs/\`, the console output to \`logs/console.log\`.

## Bring the results back to the lab

\`\`\`sh
npm run import-run -- --verl-logs path/to/this/folder/logs --out runs/${o.experimentName}-cluster
\`\`\`

reads the console log (or a W&B history export as JSONL) into the lab's \`metrics.jsonl\` names. In the lab, Runs →
"Compare with…" → \`runs/${o.experimentName}-cluster/metrics.jsonl\` overlays the cluster run on the charts next to
the browser run it came from.
${cfg.warnings.length ? `\n## Differences from the lab run\n\n${cfg.warnings.map((w) => `- ${w}`).join('\n')}\n` : ''}`;
}
