#!/usr/bin/env bash
# The mode comparison of docs/results.md ("All modes on the tiny preset"): every training mode from the shipped tiny
# checkpoints with the same seeds and step budget, one at a time, each evaluated at its last step on the same
# held-out problems with the same metrics; the shipped models' evaluation (the common start); the test-evolution row
# (a fixed candidate pool's pass rate before/after evolution, suite size, redundancy); then the records copied to
# docs/results-data/compare and the table printed by `npm run compare`.
#   bash scripts/compare-modes.sh                  # runs what is missing, continues runs short of STEPS (resumable)
#   OUT=/tmp/cmp STEPS=10 SEEDS="1 2" MODES="code-a1 golden" TRAIN_ARGS="--set optim.lr=2e-4" bash scripts/compare-modes.sh
#   RECORDS_ONLY=1 bash scripts/compare-modes.sh   # only copy the records and print the table
# Evaluation: EVAL_PROBLEMS in-distribution held-out instances spread over the families (eval seed 1234: the same
# problems and draws for every run), EVAL_SAMPLES samples at T 0.7 / top-p 0.95 plus greedy, the Tester on each
# reference and 3 mutants, no CodeT. The defaults (4 steps, 32 problems × 4) are what the shared 2-core machine allowed
# for all runs in one session (docs/results.md); on an idle machine raise them (e.g. STEPS=40 EVAL_PROBLEMS=0).
set -euo pipefail
# --help prints the comment block above (docs/cli.md is generated from it).
[ "${1:-}" = --help ] && { sed -n '2,/^set /{/^#/s/^# \{0,1\}//p}' "$0" | sed '$d'; exit 0; }
STEPS=${STEPS:-4}
SEEDS=${SEEDS:-"1"}
MODES=${MODES:-"code-a1 golden self-play tcs ace"}
OUT=${OUT:-runs/compare}
EVAL_SAMPLES=${EVAL_SAMPLES:-4}
EVAL_PROBLEMS=${EVAL_PROBLEMS:-32} # 0: every held-out instance (86)
EVOLVE_PROBLEMS=${EVOLVE_PROBLEMS:-338} # every training problem of the tiny preset
EVOLVE_ROUNDS=${EVOLVE_ROUNDS:-3}
DATA=${DATA:-docs/results-data/compare}
# Training flags for every run. The default is the setting the committed comparison was measured with (4 problems per
# step, lr 4e-4 / 2e-4: the tiny preset's values then; the preset now uses 16 problems and 2e-4 / 1e-4).
read -r -a TRAIN_EXTRA <<< "${TRAIN_ARGS---set rollout.problems_per_step=4 --set optim.lr=4e-4 --set optim.tester_lr=2e-4}"
# The models the committed comparison started from: the first shipped tiny models (every training instance in their
# warm-start) with RL on every training instance; the tiny preset now defaults to the SFT-half warm-start.
TRAIN_EXTRA+=(--set model.coderCheckpoint=public/models/tiny/coder --set model.testerCheckpoint=public/models/tiny/tester
  --set tasks.train_part=all)
EVAL=(--problems "$EVAL_PROBLEMS" --samples "$EVAL_SAMPLES" --splits heldout --no-codet)
mkdir -p "$OUT"

# shellcheck source=scripts/lib-runs.sh
source "$(dirname "$0")/lib-runs.sh"
eval_step() { # the step an eval.json was taken at (-1 when none)
  node -e 'try{console.log(JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).step)}catch{console.log(-1)}' "$1"
}

run_one() { # mode seed [extra train args...]
  local mode=$1 seed=$2 name dir done
  shift 2
  name="$mode-s$seed"
  [ "$#" -gt 0 ] && name="$mode-evolved-s$seed"
  dir="$OUT/$name"
  train_to "$dir" "$STEPS" --preset tiny --mode "$mode" --seed "$seed" "${TRAIN_EXTRA[@]}" "$@"
  if [ "$(eval_step "$dir/eval.json")" != "$(step_of "$dir")" ]; then
    echo "$(date -u +%T) $dir: evaluating step $(step_of "$dir")"
    npm run -s eval -- --run "$dir" "${EVAL[@]}" >> "$dir.log" 2>&1
  fi
  echo "$(date -u +%T) $dir: done"
}

if [ "${RECORDS_ONLY:-0}" != 1 ]; then
  if [ ! -f "$OUT/start-eval.json" ]; then
    echo "$(date -u +%T) start: evaluating the shipped tiny models"
    npm run -s eval -- --preset tiny --coder public/models/tiny/coder --tester public/models/tiny/tester "${EVAL[@]}" --out "$OUT/start-eval.json" > "$OUT/start-eval.log" 2>&1
  fi
  for seed in $SEEDS; do for mode in $MODES; do run_one "$mode" "$seed"; done; done
  # Test evolution on the first EVOLVE_PROBLEMS training problems (all of them by default), and golden mode trained against the evolved suites
  # (EVOLVE=0 skips both).
  # Two starting points: the hidden tests (evolved-tiny) and the one public docstring test (evolved-tiny-from-public).
  for from in hidden public; do
    name=evolved-tiny
    [ "$from" = public ] && name=evolved-tiny-from-public
    if [ "${EVOLVE:-1}" = 1 ] && [ ! -f "$OUT/$name.jsonl" ]; then
      echo "$(date -u +%T) evolve from $from tests: $EVOLVE_PROBLEMS problems, $EVOLVE_ROUNDS rounds"
      npm run -s tasks -- evolve --preset tiny --rounds "$EVOLVE_ROUNDS" --problems "$EVOLVE_PROBLEMS" --from "$from" \
        --out "$OUT/$name.part" > "$OUT/$name.log" 2>&1
      mv "$OUT/$name.part" "$OUT/$name.jsonl"
    fi
  done
  if [ "${EVOLVE:-1}" = 1 ]; then
    for seed in $SEEDS; do run_one golden "$seed" --hidden-tests "$OUT/evolved-tiny.jsonl"; done
  fi
fi

# Records: config, metrics and the final eval of each run; the start eval and the evolved suites (with lineage).
mkdir -p "$DATA"
for f in start-eval.json evolved-tiny.jsonl evolved-tiny-from-public.jsonl; do if [ -f "$OUT/$f" ]; then cp "$OUT/$f" "$DATA/$f"; fi; done
for dir in "$OUT"/*/; do
  dir=${dir%/}
  [ -f "$dir/config.json" ] && [ -f "$dir/eval.json" ] || continue
  dest="$DATA/$(basename "$dir")"
  mkdir -p "$dest"
  cp "$dir/config.json" "$dir/metrics.jsonl" "$dir/eval.json" "$dest/"
  if [ -f "$dir/hidden-tests.jsonl" ]; then cp "$dir/hidden-tests.jsonl" "$dest/"; fi
done
npm run -s compare -- "$DATA"
