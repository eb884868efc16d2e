// Re-records the verl export's fixtures (src/export/verl/fixtures/) from checkouts of the public Code-A1 release and
// of verl: the release's 1.5B/3B/7B config keys and values, verl's ppo_trainer key sets, and the release's
// validation parquet schema. Run when the release or verl changes:
//   npx tsx scripts/record-verl-fixtures.ts --release DIR/Code-A1 --release-commit SHA --verl DIR --verl-commit SHA
//       [--python /path/to/python-with-pyarrow]   (adds pyarrow's type strings to the schema fixture)
//       [--only tester-prompt,console-log]        (just these; they need only --release and python3)
// tester-prompt: the Tester's chat turns as trainer_a1.py builds them (read with Python's ast from its source);
// console-log: a console log in the release's own format (scripts/record-release-console-log.py).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { parquetSchema, readRows } from '../src/export/verl/dataset';
import { parseArgs } from '../src/cli/args';
import { flattenKeys } from '../src/export/verl/keys';

const OUT = 'src/export/verl/fixtures';

function readYaml(path: string): Record<string, unknown> {
  return parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

/** trainer_a1.py's Tester turns as templates ({clean_description}, {generated_code}), read from its source by ast. */
function recordTesterPrompt(rel: string, commit: string): void {
  const py = `import ast, json, sys
tree = ast.parse(open(sys.argv[1]).read())
fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_prepare_model_b_batch_phase2")
def template(js):
    return "".join(v.value.replace("{", "{{").replace("}", "}}") if isinstance(v, ast.Constant) else "{" + v.value.id + "}" for v in js.values)
out = {}
for d in ast.walk(fn):
    if isinstance(d, ast.Dict):
        kv = {k.value: v for k, v in zip(d.keys, d.values) if isinstance(k, ast.Constant)}
        role = getattr(kv.get("role"), "value", None)
        if role == "system":
            out["system"] = kv["content"].value
        elif role == "user":
            out["sft"], out["default"] = template(kv["content"].body), template(kv["content"].orelse)
            out["sft_when"] = ast.unparse(kv["content"].test)
print(json.dumps(out))`;
  const t = JSON.parse(
    execFileSync('python3', ['-c', py, join(rel, 'code/rl/trainer_a1.py')], { encoding: 'utf8' }),
  ) as Record<string, string>;
  writeFileSync(
    join(OUT, 'release-tester-prompt.json'),
    JSON.stringify(
      {
        source: `github.com/ZJU-REAL/Code-A1@${commit} Code-A1/code/rl/trainer_a1.py _prepare_model_b_batch_phase2`,
        ...t,
      },
      null,
      1,
    ) + '\n',
  );
  console.log(`wrote ${OUT}/release-tester-prompt.json`);
}

/** A console log printed by the release's own console logger (see scripts/record-release-console-log.py). */
function recordConsoleLog(rel: string, commit: string): void {
  const text = execFileSync('python3', ['scripts/record-release-console-log.py', rel, commit], { encoding: 'utf8' });
  writeFileSync(join(OUT, 'release-console.log'), text);
  console.log(`wrote ${OUT}/release-console.log (${text.split('\n').length - 1} lines)`);
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2), {
    release: 'string',
    'release-commit': 'string',
    verl: 'string',
    'verl-commit': 'string',
    python: 'string',
    only: 'string',
  });
  const only = typeof a.only === 'string' ? new Set(a.only.split(',')) : undefined;
  const rel = a.release;
  const verl = a.verl;
  if (typeof rel !== 'string') throw new Error('give --release DIR (the Code-A1/ folder of the release)');
  const relCommit = String(a['release-commit'] ?? 'unknown');
  if (!only || only.has('tester-prompt')) recordTesterPrompt(rel, relCommit);
  if (!only || only.has('console-log')) recordConsoleLog(rel, relCommit);
  if (only) return;
  if (typeof verl !== 'string') throw new Error('give --verl DIR (a checkout of verl)');
  const verlCommit = String(a['verl-commit'] ?? 'unknown');

  const configs: Record<string, Record<string, unknown>> = {};
  for (const size of ['1.5B', '3B', '7B'])
    configs[`${size}_A1`] = flattenKeys(readYaml(join(rel, `code/rl/config/${size}_A1.yaml`)));
  writeFileSync(
    join(OUT, 'release-configs.json'),
    JSON.stringify(
      { source: `github.com/ZJU-REAL/Code-A1@${relCommit} Code-A1/code/rl/config/{1.5B,3B,7B}_A1.yaml`, configs },
      null,
      1,
    ) + '\n',
  );

  const fork = Object.keys(flattenKeys(readYaml(join(rel, 'verl/verl/trainer/config/ppo_trainer.yaml')))).sort();
  const upstream = Object.keys(
    flattenKeys(readYaml(join(verl, 'verl/trainer/config/_generated_ppo_trainer.yaml'))),
  ).sort();
  writeFileSync(
    join(OUT, 'verl-ppo-trainer-keys.json'),
    JSON.stringify(
      {
        fork: {
          source: `github.com/ZJU-REAL/Code-A1@${relCommit} Code-A1/verl/verl/trainer/config/ppo_trainer.yaml (verl 0.4.0.dev, the engine the release runs)`,
          keys: fork,
        },
        upstream: {
          source: `github.com/volcengine/verl@${verlCommit} verl/trainer/config/_generated_ppo_trainer.yaml`,
          keys: upstream,
        },
      },
      null,
      1,
    ) + '\n',
  );

  const pq = join(rel, 'code/rl/val_data/validation_data_mix.parquet');
  const bytes = new Uint8Array(readFileSync(pq));
  const schema = parquetSchema(bytes);
  let arrow: Record<string, string> | undefined;
  if (typeof a.python === 'string') {
    const py = `import json, sys, pyarrow.parquet as pq\nprint(json.dumps({f.name: str(f.type) for f in pq.read_schema(sys.argv[1])}))`;
    arrow = JSON.parse(execFileSync(a.python, ['-c', py, pq], { encoding: 'utf8' })) as Record<string, string>;
  }
  writeFileSync(
    join(OUT, 'release-val-schema.json'),
    JSON.stringify(
      {
        source: `github.com/ZJU-REAL/Code-A1@${relCommit} Code-A1/code/rl/val_data/validation_data_mix.parquet`,
        rows: (await readRows(bytes)).length,
        schema,
        ...(arrow ? { arrow } : {}),
      },
      null,
      1,
    ) + '\n',
  );
  console.log(`wrote ${OUT}/release-configs.json, verl-ppo-trainer-keys.json, release-val-schema.json`);
}

void main();
