# Shared by the experiment scripts (sourced): where a run directory stands, and training it to a number of steps,
# fresh or resumed, so that every script can be run again after an interruption.

step_of() { # DIR: the last committed step of a run directory (0 when none)
  node -e 'const fs=require("fs");const d=process.argv[1];for(const b of ["latest","latest.old"]){try{console.log(JSON.parse(fs.readFileSync(d+"/"+b+"/state.json","utf8")).step);process.exit(0)}catch{}}console.log(0)' "$1"
}

eval_step_of() { # DIR: the step of the run's end-of-run eval.json (-1 when none): a resumed run's is stale
  node -e 'try{console.log(JSON.parse(require("fs").readFileSync(process.argv[1]+"/eval.json","utf8")).step)}catch{console.log(-1)}' "$1"
}

train_to() { # DIR STEPS [train flags of a fresh run...]: resumes DIR up to STEPS steps, or starts it (log: DIR.log)
  local dir=$1 steps=$2 done
  shift 2
  if [ -f "$dir/config.json" ]; then
    done=$(step_of "$dir")
    [ "$done" -lt "$steps" ] || return 0
    echo "$(date -u +%T) $dir: resuming at step $done"
    npm run -s train -- --resume "$dir" --steps $((steps - done)) >> "$dir.log" 2>&1
  else
    echo "$(date -u +%T) $dir: training $steps steps"
    npm run -s train -- "$@" --steps "$steps" --out "$dir" > "$dir.log" 2>&1
  fi
}
