#!/usr/bin/env bash
# Tuning on the training split (docs/results.md, "Tuning on the training split"): code-a1 with shared grading from
# the SFT-half warm-start at each candidate setting (problems per step, lr), one seed, the same number of problems
# seen by each (320), then its Coder on the training instances RL trained on (train-rl, every one, 8 samples): no
# held-out number is looked at. Records go to DATA; `npm run tuning -- DATA` prints the table and draws the plots.
#   bash scripts/tune-setting.sh                          # runs what is missing; a recorded setting is skipped
#   SETTINGS="p16-lr3e-4:16:3e-4:1.5e-4:20" bash scripts/tune-setting.sh   # another candidate next to them
# SETTINGS: name:problems-per-step:lr:tester-lr:steps, space-separated. JOBS settings train at once (2 here, each
# ~75 s per 16-problem step when two share the 2-core machine; an end evaluation ~10 min).
set -euo pipefail
OUT=${OUT:-runs/tuning}
DATA=${DATA:-docs/results-data/tuning}
PLOTS=${PLOTS:-docs/plots/tuning}
WARMSTART=${WARMSTART:-public/models/tiny-sft-half}
SEED=${SEED:-2}
JOBS=${JOBS:-2}
SETTINGS=${SETTINGS:-"p16-lr2e-4:16:2e-4:1e-4:20 p16-lr1e-4:16:1e-4:5e-5:20 p16-lr4e-4:16:4e-4:2e-4:20 p8-lr2e-4:8:2e-4:1e-4:40 p32-lr2e-4:32:2e-4:1e-4:10"}
mkdir -p "$OUT" "$DATA"
# shellcheck source=scripts/lib-runs.sh
source "$(dirname "$0")/lib-runs.sh"

# The start: the warm-start on the same instances (the committed one is the train-rl row of its start evaluation,
# docs/results-data/disjoint/sft-half-c-start-eval.json: 86 of them).
if [ ! -f "$DATA/start-eval.json" ]; then
  npm run -s eval -- --preset tiny --coder "$WARMSTART/coder" --tester "$WARMSTART/tester" --splits train-rl \
    --problems 86 --no-codet --out "$DATA/start-eval.json"
fi

one() { # name:problems:lr:tester-lr:steps
  local name p lr tlr steps dir
  IFS=: read -r name p lr tlr steps <<< "$1"
  dir="$OUT/$name"
  if [ -f "$DATA/$name/train-rl.json" ]; then echo "$name: recorded in $DATA"; return; fi
  train_to "$dir" "$steps" --preset tiny --mode code-a1 --seed "$SEED" \
    --set "model.coderCheckpoint=$WARMSTART/coder" --set "model.testerCheckpoint=$WARMSTART/tester" \
    --set tasks.train_part=rl --set reward.coder_tests=shared --set "rollout.problems_per_step=$p" \
    --set "optim.lr=$lr" --set "optim.tester_lr=$tlr"
  npm run -s eval -- --run "$dir" --splits train-rl --samples 8 --no-codet --out "$dir/train-rl.json" >> "$dir.log" 2>&1
  mkdir -p "$DATA/$name"
  cp "$dir/config.json" "$dir/metrics.jsonl" "$dir/train-rl.json" "$DATA/$name/"
  echo "$(date -u +%T) $name: recorded"
}

for s in $SETTINGS; do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
  one "$s" &
done
wait
npm run -s tuning -- "$DATA" --out "$PLOTS"
