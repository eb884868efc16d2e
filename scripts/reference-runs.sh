#!/usr/bin/env bash
# The reference result of docs/results.md: code-a1, golden and self-play from the shipped tiny checkpoints, same seed
# and step count, held-out evals during the runs, start/end evals on the whole held-out split, then the plots.
#   bash scripts/reference-runs.sh            # STEPS=40 PARALLEL=1 by default
# PARALLEL=1 runs the three trainings at once (same total CPU on a 2-core machine, and a time limit cuts all three at
# the same step); the results do not depend on it.
set -euo pipefail
STEPS=${STEPS:-40}
PARALLEL=${PARALLEL:-1}
OUT=${OUT:-runs}
EVAL=(--eval-every 10 --eval-problems 24 --eval-samples 4 --eval-splits heldout)
mkdir -p "$OUT" docs/results-data
train() {
  npm run -s train -- --preset tiny --mode "$1" --steps "$STEPS" --seed 1 --out "$OUT/ref-$1" "${EVAL[@]}" > "$OUT/ref-$1.log" 2>&1
}
for mode in code-a1 golden self-play; do
  if [ -d "$OUT/ref-$mode" ]; then echo "$OUT/ref-$mode exists; remove it first" >&2; exit 2; fi
done
if [ "$PARALLEL" = 1 ]; then
  pids=()
  for mode in code-a1 golden self-play; do train "$mode" & pids+=($!); done
  for p in "${pids[@]}"; do wait "$p"; done
else
  for mode in code-a1 golden self-play; do train "$mode"; done
fi
# The runs' eval.jsonl hold the in-distribution held-out split at steps 0, 10, …; the whole held-out family is
# evaluated once at the start (shipped models) and at the end of each run.
npm run -s eval -- --preset tiny --problems 24 --samples 4 --splits heldout-family --out "$OUT/ref-start-family-eval.json"
for mode in code-a1 golden self-play; do
  npm run -s eval -- --run "$OUT/ref-$mode" --problems 24 --samples 4 --splits heldout-family
done
# The records docs/results.md is built from (the plots regenerate from these with `npm run plots`).
cp "$OUT/ref-start-family-eval.json" docs/results-data/start-family-eval.json
for mode in code-a1 golden self-play; do
  mkdir -p "docs/results-data/$mode"
  cp "$OUT/ref-$mode/"{config.json,metrics.jsonl,eval.jsonl,eval.json} "docs/results-data/$mode/"
done
npm run -s plots -- docs/results-data/code-a1 docs/results-data/golden docs/results-data/self-play --out docs/plots
# The same records as run bundles the lab overlays in one click (public/reference).
npm run -s reference-bundles
