// preflight.py of a verl export: the checks launch.sh runs with Python in the release's .venv-rl (see its header).
// Kept as a string in TypeScript, not a .py file imported with ?raw, so the exporter loads unchanged in Node, the page
// and Playwright's runner; launch-sh.test.ts runs it with CPython.
export const PREFLIGHT_PY = String.raw`# Pre-flight checks of a Code-A1 Lab verl export, run by launch.sh (in the release's .venv-rl) before main_a1.py:
#   python preflight.py sandbox                            the sandbox_fusion server runs code and answers right
#   python preflight.py cluster NNODES GPUS_PER_NODE [--if-running]
#       the Ray cluster has the nodes and GPUs, and on every node a Ray task (scheduled there, with no runtime_env of
#       its own, as main_a1.py's workers are) sees the sandbox address, the W&B mode, the export folder and the release
#       folder at the same paths, and reaches the sandbox. --if-running: only when a cluster is already running (one
#       node: otherwise main_a1.py starts its own Ray, whose workers inherit this shell's environment).
# Exit status 1 with one line per problem on stderr when anything is missing: a run must not train on zero rewards.
import hashlib
import json
import os
import sys
import urllib.request
import uuid

EXPORT_DIR = os.path.dirname(os.path.abspath(__file__))
RUN_ENV = ("SANDBOX_FUSION_ENDPOINT", "CODE_A1_DIR", "CODE_A1_EXPORT_DIR")


def fail(lines):
    for line in lines:
        print(f"launch.sh: {line}", file=sys.stderr)
    sys.exit(1)


def sandbox_problem(endpoint):
    """None when sandbox_fusion at endpoint runs a program and returns its output, else what went wrong."""
    body = json.dumps({"code": "print(6 * 7)", "language": "python", "run_timeout": 10}).encode()
    req = urllib.request.Request(
        endpoint.rstrip("/") + "/run_code", data=body, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            res = json.loads(r.read().decode())
    except Exception as e:  # any failure is reported, the check itself must not crash
        return f"sandbox_fusion at {endpoint} does not answer run_code ({type(e).__name__}: {e})"
    out = ((res.get("run_result") or {}).get("stdout") or "").strip()
    if res.get("status") != "Success" or out != "42":
        return f"sandbox_fusion at {endpoint} ran print(6 * 7) with status {res.get('status')!r} and output {out!r}, not 42"
    return None


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def expected_state(nonce):
    cfg = os.path.join(EXPORT_DIR, "config.yaml")
    return {
        "env": {k: os.environ.get(k, "") for k in RUN_ENV},
        "wandb_online": bool(os.environ.get("WANDB_API_KEY")),
        "config_sha256": sha256(cfg),
        "export_dir": EXPORT_DIR,
        "nonce": nonce,
        "models": [m for m in os.environ.get("CODE_A1_LOCAL_MODELS", "").split(":") if m],
    }


def node_problems(want):
    """Runs on one node, inside a Ray worker: what that node's workers lack for the run."""
    import os as _os

    out = []
    for k, v in want["env"].items():
        got = _os.environ.get(k)
        if got != v:
            out.append(f"{k} is {'unset' if got is None else repr(got)} in its Ray workers (the run needs {v!r})")
    if want["wandb_online"]:
        if not _os.environ.get("WANDB_API_KEY"):
            out.append("WANDB_API_KEY is unset in its Ray workers (the head logs to W&B online)")
    elif _os.environ.get("WANDB_MODE") != "offline":
        out.append("WANDB_MODE is not offline in its Ray workers (no W&B key: wandb would stop the run at login)")
    d = want["export_dir"]
    cfg = _os.path.join(d, "config.yaml")
    if not _os.path.isfile(cfg):
        out.append(f"the export folder is not at {d}")
    else:
        import hashlib as _h

        with open(cfg, "rb") as f:
            if _h.sha256(f.read()).hexdigest() != want["config_sha256"]:
                out.append(f"{cfg} differs from the head's (copy the same export to every node)")
        for f in ("train.parquet", "val.parquet"):
            if not _os.path.isfile(_os.path.join(d, f)):
                out.append(f"{d}/{f} is missing")
    rel = want["env"]["CODE_A1_DIR"]
    if not _os.path.isfile(_os.path.join(rel, "code/rl/trainer_a1.py")):
        out.append(f"the release is not at {rel} (code/rl/trainer_a1.py)")
    for m in want["models"]:
        if not _os.path.isfile(_os.path.join(m, "config.json")):
            out.append(f"the model folder {m} is missing")
    shared = _os.path.isfile(_os.path.join(d, "logs", f".preflight-{want['nonce']}"))
    ep = _os.environ.get("SANDBOX_FUSION_ENDPOINT")
    if ep:
        p = sandbox_problem(ep)
        if p:
            out.append(p)
    return {"problems": out, "shared": shared}


def cluster(nnodes, gpus_per_node, if_running):
    import ray

    try:
        ray.init(address="auto", logging_level="ERROR")
    except ConnectionError:
        if if_running:
            return
        fail(
            [
                f"no Ray cluster is running; this export needs {nnodes} nodes: run 'bash launch.sh ray-head' on this node "
                "and 'bash launch.sh ray-worker THIS_NODE_IP:6379' on each other node, then 'bash launch.sh' again"
            ]
        )
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    gpus = int(sum(n.get("Resources", {}).get("GPU", 0) for n in nodes))
    problems = []
    if len(nodes) < nnodes:
        problems.append(f"the Ray cluster has {len(nodes)} node(s); this export needs {nnodes} (start Ray on every node)")
    if gpus < nnodes * gpus_per_node:
        problems.append(
            f"the Ray cluster has {gpus} GPU(s); this export needs {nnodes * gpus_per_node} ({nnodes} x {gpus_per_node})"
        )
    nonce = uuid.uuid4().hex
    marker = os.path.join(EXPORT_DIR, "logs", f".preflight-{nonce}")
    os.makedirs(os.path.dirname(marker), exist_ok=True)
    open(marker, "w").close()
    try:
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        want = expected_state(nonce)
        probe = ray.remote(num_cpus=0)(node_problems)
        refs = [
            probe.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node_id=n["NodeID"], soft=False)).remote(want)
            for n in nodes
        ]
        results = ray.get(refs, timeout=300)
    finally:
        os.remove(marker)
    unshared = []
    for n, r in zip(nodes, results):
        name = n.get("NodeManagerAddress", n["NodeID"])
        problems += [f"node {name}: {p}" for p in r["problems"]]
        if not r["shared"]:
            unshared.append(name)
    if problems:
        fail(
            problems
            + ["start Ray on every node with 'bash launch.sh ray-head' / 'bash launch.sh ray-worker HEAD_IP:6379' from this export"]
        )
    if unshared:
        print(
            f"launch.sh: note: node(s) {', '.join(unshared)} have their own copy of the export folder (not a shared "
            "file system): each node keeps the checkpoint shards its GPUs save; resuming needs them all at the same path",
            file=sys.stderr,
        )
    print(f"launch.sh: Ray cluster ok: {len(nodes)} node(s), {gpus} GPU(s), every node has the run's environment and paths")


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "sandbox":
        p = sandbox_problem(os.environ["SANDBOX_FUSION_ENDPOINT"])
        if p:
            fail([p + ": the release's reward would score every rollout 0 (start the server, or fix the address)"])
        print(f"launch.sh: sandbox_fusion at {os.environ['SANDBOX_FUSION_ENDPOINT']} runs code")
    elif len(sys.argv) >= 4 and sys.argv[1] == "cluster":
        cluster(int(sys.argv[2]), int(sys.argv[3]), "--if-running" in sys.argv[4:])
    else:
        fail(["usage: python preflight.py sandbox | cluster NNODES GPUS_PER_NODE [--if-running]"])
`;
