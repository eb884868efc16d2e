#!/usr/bin/env bash
# Warm-starts the tiny Coder and Tester on the SFT half of the training instances only (src/tasks/split.ts), so that
# reference runs with `--set tasks.train_part=rl` (WARMSTART=OUT bash scripts/reference-runs.sh) train on instances
# the models never saw (docs/results.md, "Disjoint data"). Each stage writes its checkpoint when it ends and is skipped
# on a later call once finished, so the script can be run again after an interruption (a cut stage starts over).
#   OUT=runs/warmstart-sft bash scripts/warmstart-sft-half.sh
# 950 batch-8 steps at ~2-3.4 s each (35-55 minutes on the idle 2-core machine) plus the evaluation; minutes on a GPU.
set -euo pipefail
OUT=${OUT:-runs/warmstart-sft}
mkdir -p "$OUT"

stage() { # name, then the pretrain flags of that stage
  local name=$1
  shift
  if [ -f "$OUT/$name.done" ]; then
    echo "$name: finished before"
    return
  fi
  echo "$name: running (log: $OUT/$name.log)"
  npm run -s pretrain -- --preset tiny --part sft --batch 8 --out "$OUT" "$@" > "$OUT/$name.log" 2>&1
  touch "$OUT/$name.done"
}

# The Coder from a fresh init, then the Tester, then more Coder steps from its checkpoint (the shipped models' recipe,
# public/models/tiny/pretrain.json, on the seven families only).
stage coder-400 --only coder --steps 400
stage tester-250 --only tester --steps 250
stage coder-300 --only coder --init "$OUT" --steps 300
# Where RL would start: every held-out instance, 8 samples, the Tester on references and mutants.
[ -f "$OUT/start-eval.json" ] ||
  npm run -s eval -- --preset tiny --coder "$OUT/coder" --tester "$OUT/tester" --splits heldout --no-codet \
    --out "$OUT/start-eval.json"
