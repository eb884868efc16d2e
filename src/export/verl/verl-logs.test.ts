// Import of a cluster run's logs: console lines as verl's console logger prints them (trainer_a1.py's `_a` / `_b2`
// groups) and W&B history JSONL become the lab's metrics.jsonl names, one record per training step.
import { describe, expect, it } from 'vitest';
import { LOG_MAP, parseConsoleLog, parseVerlLogs, parseWandbJsonl, toLabMetrics } from './logs';
import { readFileSync } from 'node:fs';
import { parseMetricsJsonl } from '../../rl/metrics';
import { RELEASE_METRICS } from './logs';
import { freshSeed, mulberry32 } from '../../testing/random';

/** verl 0.4's console logger line (aggregate_logger.concat_dict_to_str): `step:N - key:value` with 3 decimals. */
function consoleLine(step: number, data: Record<string, number>): string {
  return [`step:${step}`, ...Object.entries(data).map(([k, v]) => `${k}:${v.toFixed(3)}`)].join(' - ');
}

function randomStep(rng: () => number): { a: Record<string, number>; b2: Record<string, number> } {
  const r = () => Math.round((rng() * 2 - 1) * 1e6) / 1e6;
  return {
    a: {
      'reward_a/mean': r(),
      'reward_a/std': r(),
      'sandbox_a/gen_pass_rate': r(),
      'sandbox_a/valid_test': 1 + rng() * 7,
      'sandbox_a/total_test': 8,
      'actor_a/pg_loss': r(),
      'actor_a/kl_loss': r(),
      'actor_a/entropy_loss': r(),
      'actor_a/grad_norm': r(),
      'response_length_a/mean': 100 + rng() * 900,
      'timing_s_a/step': 10 + rng() * 100,
      'timing_s_a/gen': rng() * 10,
      'timing_s_a/reward': rng() * 10,
      'timing_s_a/update_actor': rng() * 10,
      'critic_a/score/mean': r(),
    },
    b2: {
      'reward_b2/mean': r(),
      'reward_b2/std': r(),
      'actor_b2/pg_loss': r(),
      'actor_b2/kl_loss': r(),
      'actor_b2/entropy_loss': r(),
      'actor_b2/grad_norm': r(),
      'response_length_b2/mean': 50 + rng() * 300,
    },
  };
}

describe('verl log import', () => {
  const seed = freshSeed();
  console.log('verl logs seed', seed);
  const rng = mulberry32(seed);
  const steps = Array.from({ length: 5 }, () => randomStep(rng));

  it('console logs: both groups of a step merge, steps shift to the lab count, other lines are ignored', () => {
    const lines = [
      '(TaskRunner pid=4242) Start dual model collaborative training...',
      consoleLine(0, { 'val_a/humanevalplus/avg@32': 0.41 }),
    ];
    steps.forEach((s, i) => {
      lines.push(
        `(TaskRunner pid=4242) ${consoleLine(i + 1, s.a)}`,
        consoleLine(i + 1, s.b2),
        'Training Progress:  20%|██        | 1/5',
      );
    });
    const got = toLabMetrics(parseConsoleLog(lines.join('\n')));
    expect(got.map((m) => m.step)).toEqual([0, 1, 2, 3, 4]);
    got.forEach((m, i) => {
      const want = { ...steps[i].a, ...steps[i].b2 };
      const r3 = (x: number) => Number(x.toFixed(3));
      expect(m['coder/reward_mean']).toBe(r3(want['reward_a/mean']));
      expect(m['tester/loss']).toBe(r3(want['actor_b2/pg_loss']));
      expect(m['completions/tester_mean_length']).toBe(r3(want['response_length_b2/mean']));
      expect(m['release/tester_valid_test_rate']).toBeCloseTo(r3(want['sandbox_a/valid_test']) / 8, 12);
      expect(m['release/coder_pass_rate']).toBe(r3(want['sandbox_a/gen_pass_rate']));
      expect(m['time/step_s']).toBe(r3(want['timing_s_a/step']));
      expect(Object.keys(m).sort()).toEqual(['mode', 'step', ...Object.keys(LOG_MAP)].sort());
    });
    // The lab's overlay reads these records as metrics.jsonl.
    const back = parseMetricsJsonl(got.map((m) => JSON.stringify(m)).join('\n'));
    expect(back.map((m) => m.step)).toEqual([0, 1, 2, 3, 4]);
  });

  it('W&B JSONL keeps full precision and the timestamp; files of one run merge by step', () => {
    const jsonl = steps
      .map((s, i) => JSON.stringify({ _step: i + 1, _timestamp: 1.7e9 + i, ...s.a, 'val_a/mbppplus/avg@32': 0.5 }))
      .join('\n');
    const merged = parseVerlLogs([
      { name: 'history.jsonl', text: jsonl },
      { name: 'console.log', text: steps.map((s, i) => consoleLine(i + 1, s.b2)).join('\n') },
    ]);
    const got = toLabMetrics(merged);
    expect(got).toHaveLength(5);
    got.forEach((m, i) => {
      expect(m['coder/loss']).toBe(steps[i].a['actor_a/pg_loss']);
      expect(m.time).toBe(Math.round((1.7e9 + i) * 1000));
      expect(m['tester/reward_mean']).toBe(Number(steps[i].b2['reward_b2/mean'].toFixed(3)));
    });
  });

  it('bad input is reported with the file and line; logs without training steps import nothing', () => {
    expect(() => parseVerlLogs([{ name: 'h.jsonl', text: '{"_step": 1, "reward_a/mean": 0.5}\n{oops' }])).toThrow(
      'h.jsonl: line 2: not JSON',
    );
    expect(() => parseWandbJsonl('{"reward_a/mean": 0.5}')).toThrow('line 1: no integer _step or step');
    expect(toLabMetrics(parseConsoleLog(consoleLine(0, { 'val_a/humanevalplus/avg@32': 0.3 })))).toEqual([]);
    expect(toLabMetrics(parseConsoleLog('nothing here\nstep:x - a:1'))).toEqual([]);
  });
});

describe("a console log in the release's own format (fixtures/release-console.log)", () => {
  const text = readFileSync(new URL('./fixtures/release-console.log', import.meta.url), 'utf8');
  const steps = parseConsoleLog(text);
  const got = toLabMetrics(steps);

  it('every name the import reads is one the release logs; its training steps all import', () => {
    const logged = new Set([...steps.values()].flatMap((m) => Object.keys(m)));
    const read = Object.values(LOG_MAP).filter((v): v is string => typeof v === 'string');
    expect(read.filter((k) => !logged.has(k))).toEqual([]);
    expect(logged.has('sandbox_a/valid_test') && logged.has('sandbox_a/total_test')).toBe(true);
    expect(got.map((m) => m.step)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it("metrics whose definitions differ never take the lab's names", () => {
    for (const m of got) {
      for (const [key, d] of Object.entries(RELEASE_METRICS)) {
        expect(m).not.toHaveProperty(d.lab);
        expect(typeof m[key as keyof typeof RELEASE_METRICS]).toBe('number');
      }
      const raw = steps.get(m.step + 1)!;
      expect(m['release/coder_pass_rate']).toBe(raw['sandbox_a/gen_pass_rate']);
      expect(m['release/tester_valid_test_rate']).toBeCloseTo(
        raw['sandbox_a/valid_test'] / raw['sandbox_a/total_test'],
        12,
      );
    }
  });
});
