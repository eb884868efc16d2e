// The audit's regrading through the real Pyodide sandbox: two candidates graded on tests aimed at each (the wrong one
// got only an easy test, so its reward is 1) come out ordered by correctness once both face the union of those tests,
// and tied on a public example that the wrong one also passes.
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeSandbox } from '../sandbox/node';
import type { CandidateRecord, RolloutRecord, TestRecord } from '../rl/records';
import { regradePublic, regradeShared, sharedTests } from './reward-audit-shared';
import { rewardAudit } from './reward-audit';

const sandbox = createNodeSandbox();
afterAll(() => sandbox.close());

const test = (text: string, valid = true): TestRecord => ({ text, valid, callOk: valid });
const candidate = (code: string, reward: number, hiddenPassRate: number, tests: TestRecord[]): CandidateRecord => ({
  code,
  compiles: true,
  reward,
  advantage: 0,
  hiddenPassRate,
  testerRollouts: [{ raw: '', tests, passed: [], validity: 1, adversarial: 0, reward: 0, advantage: 0 }],
});

const record: RolloutRecord = {
  step: 0,
  mode: 'code-a1',
  problemId: 'absolute/0000',
  prompt: '',
  entryPoint: 'absolute',
  replays: ['assert absolute(0) == 0'],
  candidates: [
    // Right, but its Tester found the hard case and it was graded 3/4 with a replay mix: below the wrong one.
    candidate('def absolute(x):\n    return x if x >= 0 else -x\n', 0.75, 1, [
      test('assert absolute(-3) == 3'),
      test('assert absolute(-3) == 4', false),
    ]),
    // Wrong on negatives, graded only on an easy test: reward 1.
    candidate('def absolute(x):\n    return x\n', 1, 0.5, [
      test('assert absolute(2) == 2'),
      test('assert absolute(-3) == 3'),
    ]),
  ],
};

describe('shared-test regrading', { timeout: 120_000 }, () => {
  it('takes each valid written test once, then the replays', () => {
    expect(sharedTests(record)).toEqual([
      'assert absolute(-3) == 3',
      'assert absolute(2) == 2',
      'assert absolute(0) == 0',
    ]);
  });

  it('grades every candidate of the group on the union, which orders the pair by correctness', async () => {
    expect(rewardAudit([[record]]).pairs.wrong).toBe(1);
    const shared = await regradeShared(sandbox, record, { entryPoint: 'absolute' }, 1000);
    expect(shared.candidates.map((c) => c.reward)).toEqual([1, 2 / 3]);
    expect(rewardAudit([[shared]]).pairs.right).toBe(1);
  });

  it('grades every candidate on the public tests: an example the wrong one passes ties the pair', async () => {
    const easy = await regradePublic(
      sandbox,
      record,
      { entryPoint: 'absolute', publicTests: ['assert absolute(2) == 2'] },
      1000,
    );
    expect(easy.candidates.map((c) => c.reward)).toEqual([1, 1]);
    expect(rewardAudit([[easy]]).pairs.tied).toBe(1);
    expect(rewardAudit([[easy]]).falsePositive).toBe(0.5);
    const pair = ['assert absolute(2) == 2', 'assert absolute(-1) == 1'];
    const hard = await regradePublic(sandbox, record, { entryPoint: 'absolute', publicTests: pair }, 1000);
    expect(hard.candidates.map((c) => c.reward)).toEqual([1, 0.5]);
    expect(rewardAudit([[hard]]).pairs.right).toBe(1);
  });

  it('gives 0 to every candidate of a group with no shared test', async () => {
    const none = { ...record, replays: [], candidates: record.candidates.map((c) => ({ ...c, testerRollouts: [] })) };
    const shared = await regradeShared(sandbox, none, { entryPoint: 'absolute' }, 1000);
    expect(shared.candidates.map((c) => c.reward)).toEqual([0, 0]);
  });
});
