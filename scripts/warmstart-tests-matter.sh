#!/usr/bin/env bash
# Warm-starts the tiny Coder and Tester on six families whose bugs the docstring example often misses (fizz_label,
# is_power_of, max_subarray, first_index_over, sum_multiples, collatz_steps: 67-100% of their mutants pass it, `npm run
# tasks -- stats --check all`), from the seed-2 control Coder and the SFT-half Tester (docs/results.md, "A curriculum
# where tests matter"). SFT half of those families' training instances only, so RL with tasks.train_part=rl and the
# same families trains on instances the models never saw.
#   FROM=runs/ws-ctrl2 OUT=runs/tm/sft bash scripts/warmstart-tests-matter.sh
# FROM holds the Coder and Tester to continue from (runs/ws-ctrl2: public/models/tiny-sft-half-plus300/coder and
# public/models/tiny-sft-half/tester). The two stages run at once: 30 and 25 minutes on the 2-core machine.
# Then: WARMSTART=$OUT SET="reward.coder_tests=shared tasks.families=$FAMILIES" START_EVAL=0 ... reference-runs.sh.
set -euo pipefail
# --help prints the comment block above (docs/cli.md is generated from it).
[ "${1:-}" = --help ] && { sed -n '2,/^set /{/^#/s/^# \{0,1\}//p}' "$0" | sed '$d'; exit 0; }
FROM=${FROM:-runs/ws-ctrl2}
OUT=${OUT:-runs/tm/sft}
FAMILIES=fizz_label,is_power_of,max_subarray,first_index_over,sum_multiples,collatz_steps
for r in coder tester; do
  [ -f "$FROM/$r/model.safetensors" ] || { echo "FROM=$FROM: no $r/model.safetensors there" >&2; exit 2; }
done
mkdir -p "$OUT-c" "$OUT-t"
cp -r "$FROM/coder" "$OUT-c/"
cp -r "$FROM/tester" "$OUT-t/"
[ -f "$FROM/pretrain.json" ] && cp "$FROM/pretrain.json" "$OUT-c/" && cp "$FROM/pretrain.json" "$OUT-t/"
sft() { # role steps
  npm run -s pretrain -- --preset tiny --part sft --batch 8 --families "$FAMILIES" --only "$1" --init "$OUT-${1:0:1}" \
    --out "$OUT-${1:0:1}" --steps "$2" > "$OUT-${1:0:1}.log" 2>&1
}
sft coder 500 &
coder=$!
sft tester 300 &
tester=$!
wait "$coder"
wait "$tester"
mkdir -p "$OUT"
cp -r "$OUT-c/coder" "$OUT-t/tester" "$OUT/"
echo "wrote $OUT/coder and $OUT/tester (logs: $OUT-c.log, $OUT-t.log)"
