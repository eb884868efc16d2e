# Test helper for the verl export (export-verl.test.ts), run with python3:
#   schema FILE...  -> {file: {"columns": {name: pyarrow type}, "rows": n}} (needs pyarrow, as the release's loader uses)
#   harness         -> runs the rows given as JSON on stdin the way the release's validation does (the `test` column's
#                      check() called on the function GT_code defines) and prints the failures as JSON
import json
import sys


def schema(paths):
    import pyarrow.parquet as pq

    out = {}
    for p in paths:
        t = pq.read_table(p)
        out[p] = {"columns": {f.name: str(f.type) for f in t.schema}, "rows": t.num_rows, "first": t.slice(0, 1).to_pylist()[0]}
    print(json.dumps(out))


def harness():
    failures = []
    rows = json.load(sys.stdin)
    for r in rows:
        ns = {"__name__": "__check__"}
        try:
            exec(r["GT_code"], ns)
            exec(r["test"], ns)
            ns["check"](ns[r["extra_info"]["function_name"]])
        except BaseException as e:  # a failing row is reported, not fatal
            failures.append({"question_id": r["extra_info"]["question_id"], "error": f"{type(e).__name__}: {e}"})
    print(json.dumps({"rows": len(rows), "failures": failures}))


if __name__ == "__main__":
    if sys.argv[1] == "schema":
        schema(sys.argv[2:])
    else:
        harness()
