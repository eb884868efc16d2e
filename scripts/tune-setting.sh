#!/usr/bin/env bash
# Tuning without held-out numbers (docs/results.md, "Tuning on the training split" and "Tuning on a validation
# part"): code-a1 with shared grading from the SFT-half warm-start at each candidate setting (problems per step,
# lr), one seed, the same number of problems seen by each (320), then its Coder on training instances, every one, 8
# samples. PART is what RL trains on and SPLITS what is evaluated (`npm run tuning` judges rl-val when PART=rl-fit
# and rl-fit when PART=rl-val, else the part trained on; given several DATA directories it pools seeds and joins folds):
#   bash scripts/tune-setting.sh                          # the RL half, judged on itself (docs/results-data/tuning)
#   PART=rl-fit SPLITS=train-rl-val,train-rl-fit DATA=docs/results-data/tuning-val \
#     bash scripts/tune-setting.sh                        # trained on one half of it, judged on the other
#   PART=rl-val SPLITS=train-rl-fit,train-rl-val DATA=docs/results-data/tuning-fold-b ...   # the second fold
#   SETTINGS="p16-lr3e-4:16:3e-4:1.5e-4:20" bash scripts/tune-setting.sh   # another candidate next to them
# A recorded setting is skipped and an interrupted one resumed. Records go to DATA; `npm run tuning -- DATA` prints
# the table and draws the plots (to PLOTS, default docs/plots/ and the name of DATA).
# SETTINGS: name:problems-per-step:lr:tester-lr:steps, space-separated. JOBS settings train at once (2 here, each
# ~75 s per 16-problem step when two share the 2-core machine; an end evaluation ~10 min).
set -euo pipefail
# --help prints the comment block above (docs/cli.md is generated from it).
[ "${1:-}" = --help ] && { sed -n '2,/^set /{/^#/s/^# \{0,1\}//p}' "$0" | sed '$d'; exit 0; }
OUT=${OUT:-runs/tuning}
DATA=${DATA:-docs/results-data/tuning}
PLOTS=${PLOTS:-docs/plots/$(basename "$DATA")}
WARMSTART=${WARMSTART:-public/models/tiny-sft-half}
SEED=${SEED:-2}
PART=${PART:-rl}
SPLITS=${SPLITS:-train-rl}
JOBS=${JOBS:-2}
SETTINGS=${SETTINGS:-"p16-lr2e-4:16:2e-4:1e-4:20 p16-lr1e-4:16:1e-4:5e-5:20 p16-lr4e-4:16:4e-4:2e-4:20 p8-lr2e-4:8:2e-4:1e-4:40 p32-lr2e-4:32:2e-4:1e-4:10"}
mkdir -p "$OUT" "$DATA"
# shellcheck source=scripts/lib-runs.sh
source "$(dirname "$0")/lib-runs.sh"

# The start: the warm-start on the same instances (docs/results-data/tuning's is the train-rl row of its start
# evaluation, docs/results-data/disjoint/sft-half-c-start-eval.json: 86 of the 172).
if [ ! -f "$DATA/start-eval.json" ]; then
  npm run -s eval -- --preset tiny --coder "$WARMSTART/coder" --tester "$WARMSTART/tester" --splits "$SPLITS" \
    --samples 8 --no-codet --out "$DATA/start-eval.json"
fi

one() { # name:problems:lr:tester-lr:steps
  local name p lr tlr steps dir
  IFS=: read -r name p lr tlr steps <<< "$1"
  dir="$OUT/$name"
  if [ -f "$DATA/$name/end-eval.json" ]; then echo "$name: recorded in $DATA"; return; fi
  train_to "$dir" "$steps" --preset tiny --mode code-a1 --seed "$SEED" \
    --set "model.coderCheckpoint=$WARMSTART/coder" --set "model.testerCheckpoint=$WARMSTART/tester" \
    --set "tasks.train_part=$PART" --set reward.coder_tests=shared --set "rollout.problems_per_step=$p" \
    --set "optim.lr=$lr" --set "optim.tester_lr=$tlr"
  npm run -s eval -- --run "$dir" --splits "$SPLITS" --samples 8 --no-codet --out "$dir/end-eval.json" \
    >> "$dir.log" 2>&1
  mkdir -p "$DATA/$name"
  cp "$dir/config.json" "$dir/metrics.jsonl" "$dir/end-eval.json" "$DATA/$name/"
  echo "$(date -u +%T) $name: recorded"
}

for s in $SETTINGS; do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
  one "$s" &
done
wait
npm run -s tuning -- "$DATA" --out "$PLOTS"
