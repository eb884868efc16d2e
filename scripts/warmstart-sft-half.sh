#!/usr/bin/env bash
# Warm-starts the tiny Coder and Tester on the SFT half of the training instances only (src/tasks/split.ts), so that
# reference runs with `--set tasks.train_part=rl` (WARMSTART=OUT bash scripts/reference-runs.sh) train on instances
# the models never saw (docs/results.md, "Disjoint data"). Each stage writes its checkpoint when it ends and is skipped
# on a later call once finished, so the script can be run again after an interruption (a cut stage starts over).
#   OUT=runs/warmstart-sft bash scripts/warmstart-sft-half.sh
#   UNTIL=coder-600 OUT=runs/warmstart-sft-b bash scripts/warmstart-sft-half.sh   # stop after that stage
# 2,150 batch-8 steps: 43 minutes of SFT on the 2-core machine up to coder-600 (12.7 + 8.4 + 7.4 + 14.6 per stage),
# 39.8 more for tester-600 (a Tester step costs about twice a Coder step), plus the evaluation; minutes on a GPU.
# UNTIL=coder-600 gives sft-half-b, the warm-start of docs/results.md's disjoint-data runs.
# Every stage gives sft-half-c, shipped as public/models/tiny-sft-half (the SFT is deterministic: a rebuild here
# matched the recorded losses to the last digit).
set -euo pipefail
# --help prints the comment block above (docs/cli.md is generated from it).
[ "${1:-}" = --help ] && { sed -n '2,/^set /{/^#/s/^# \{0,1\}//p}' "$0" | sed '$d'; exit 0; }
OUT=${OUT:-runs/warmstart-sft}
UNTIL=${UNTIL:-}
case "$UNTIL" in
  '' | coder-400 | tester-250 | coder-300 | coder-600 | tester-600) ;;
  *) echo "UNTIL=$UNTIL: not a stage (coder-400 tester-250 coder-300 coder-600 tester-600)" >&2; exit 2 ;;
esac
mkdir -p "$OUT"

last=''
stage() { # name, then the pretrain flags of that stage
  local name=$1
  shift
  if [ -n "$UNTIL" ] && [ "$last" = "$UNTIL" ]; then return; fi
  last=$name
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
# 600 more Coder steps bring its SFT loss to the shipped Coder's (0.92 -> 0.505), so the two starts are comparable.
stage coder-600 --only coder --init "$OUT" --steps 600
# 600 more Tester steps: after 250 only 3% of its tests were valid, too weak a teacher for code-a1's Coder (the
# disjoint runs in docs/results.md); this brings its training as close to the Coder's as the Coder's is to the shipped.
stage tester-600 --only tester --init "$OUT" --steps 600
# Where RL would start: every held-out instance and 86 instances of each training half (seen / not seen by this
# warm-start), 8 samples, the Tester on references and mutants (again whenever the last stage is newer).
[ "$OUT/start-eval.json" -nt "$OUT/$last.done" ] ||
  npm run -s eval -- --preset tiny --coder "$OUT/coder" --tester "$OUT/tester" --splits heldout,train-sft,train-rl \
    --problems 86 --no-codet --out "$OUT/start-eval.json"
