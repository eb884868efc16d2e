# Prints a console log of the published Code-A1 release in its own format and metric names (for
# src/export/verl/fixtures/release-console.log, through scripts/record-verl-fixtures.ts --only console-log):
#   python3 scripts/record-release-console-log.py RELEASE/Code-A1 COMMIT
# The lines are printed by the release's own console logger (verl/utils/logger/aggregate_logger.py LocalLogger, loaded
# from the release's folder); the metric names are read from the release's sources (reward.py's sandbox metrics,
# dp_actor.py's actor metrics, metric_utils.py's data metrics) and suffixed as trainer_a1.py's collect_metrics does
# (`reward/mean` -> `reward_a/mean`). The values are seeded random numbers in plausible ranges, not a real run: a
# training run needs GPUs, vLLM and torch, which this machine has not. Only the standard library is needed; when torch
# is missing (as here), an empty stand-in module satisfies aggregate_logger's `import torch`, which its LocalLogger
# does not use.
import importlib.util
import random
import re
import sys
import types

rel, commit = sys.argv[1], sys.argv[2]


def src(path):
    with open(f"{rel}/{path}") as f:
        return f.read()


try:
    import torch  # noqa: F401
except ImportError:
    sys.modules["torch"] = types.ModuleType("torch")
spec = importlib.util.spec_from_file_location("aggregate_logger", f"{rel}/verl/verl/utils/logger/aggregate_logger.py")
agg = importlib.util.module_from_spec(spec)
spec.loader.exec_module(agg)
log = agg.LocalLogger(print_to_console=True).log

reward = src("code/rl/reward.py")
# The phase-2 reward manager's sandbox metrics (the last ACGRewardManager in reward.py), in the order it sets them.
phase2 = reward[reward.rindex("class ACGRewardManager") :]
sandbox = list(dict.fromkeys(re.findall(r"sandbox_metrics\['(sandbox/\w+)'\]", phase2)))
actor = list(dict.fromkeys(re.findall(r'"(actor/\w+)"', src("verl/verl/workers/actor/dp_actor.py"))))
data = list(dict.fromkeys(re.findall(r'"((?:critic|response_length|prompt_length)/[\w/]+)"', src("verl/verl/trainer/ppo/metric_utils.py"))))
trainer = src("code/rl/trainer_a1.py")
for name in ("reward/mean", "reward/std", "reward/selected_mean", "actor/entropy_loss", "training/global_step"):
    assert name in trainer, f"trainer_a1.py no longer logs {name}"
TIMERS = ["gen", "reward", "old_log_prob", "ref", "adv", "update_actor", "step"]

rng = random.Random(20260315)


def value(name, step):
    # Plausible values that drift with the step, so an import shows curves.
    t = step / 20
    if name.endswith("_count"):
        return float(rng.randint(0, 20))
    if name.endswith("/total") or "num_tokens" in name:
        return float(rng.randint(100, 4000))
    if "length" in name and not name.endswith("clip_ratio"):
        return 200 + 300 * rng.random()
    if name.startswith("timing") or name.startswith("perf"):
        return 5 + 60 * rng.random()
    if name in ("sandbox/valid_test", "sandbox/total_test", "sandbox/invalid_test", "sandbox/gen_pass"):
        return 8 * rng.random()
    if name.startswith("actor/") and "loss" in name:
        return 0.05 * (rng.random() - 0.5)
    return min(1.0, max(0.0, 0.2 + 0.4 * t + 0.1 * (rng.random() - 0.5)))


def group(metrics, g):
    # trainer_a1.py collect_metrics: the group name goes on the first path segment.
    return {(f"{k.split('/', 1)[0]}_{g}/{k.split('/', 1)[1]}" if "/" in k else f"{k}_{g}"): v for k, v in metrics.items()}


print("Start dual model collaborative training...")
val = {f"val/lab_heldout/{m}@{k}": value("pass", 0) for k in (1, 8, 16, 32) for m in ("pass", "avg")}
print(f"Initial validation metrics: {group(val, 'a')}")
log(data=group(val, "a"), step=0)
for step in range(1, 21):
    print("Start dual model rollout...")
    print("Compute dual model collaborative rewards...")
    a = {k: value(k, step) for k in sandbox}
    # Counts per rollout that agree: valid + invalid = total, passed <= valid.
    a["sandbox/total_test"] = 8 + 4 * rng.random()
    a["sandbox/valid_test"] = a["sandbox/total_test"] * value("share", step)
    a["sandbox/invalid_test"] = a["sandbox/total_test"] - a["sandbox/valid_test"]
    a["sandbox/invalid_ratio"] = a["sandbox/invalid_test"] / a["sandbox/total_test"]
    a["sandbox/gen_pass"] = a["sandbox/valid_test"] * value("share", step)
    a.update({"reward/mean": value("r", step), "reward/std": 0.3 * rng.random()})
    b2 = {"reward/mean": value("r", step), "reward/std": 0.3 * rng.random()}
    b2.update({"reward/selected_mean": value("r", step), "reward/selected_std": 0.3 * rng.random()})
    for m in (a, b2):
        m["actor/entropy_loss"] = 0.3 + 0.2 * rng.random()
        m.update({k: value(k, step) for k in actor})
        m.update({"training/global_step": step, "training/epoch": 1})
        m.update({k: value(k, step) for k in data})
        m.update({f"timing_s/{k}": value("timing", step) for k in TIMERS})
        m.update({"perf/total_num_tokens": value("num_tokens", step), "perf/time_per_step": value("perf", step)})
    if step % 10 == 0:
        a.update({f"val/lab_heldout/{m}@{k}": value("pass", step) for k in (1, 8, 16, 32) for m in ("pass", "avg")})
    log(data=group(a, "a"), step=step)
    log(data=group(b2, "b2"), step=step)
    print("Dual model training step completed")
