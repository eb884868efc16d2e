// pretrain.json's history across the invocations of a staged warm-start (scripts/warmstart-sft-half.sh's stages).
import { describe, expect, it } from 'vitest';
import { carriedHistory } from './pretrain-history';

const coder400 = { model: 'coder', steps: 400, command: 'npm run pretrain -- --only coder --steps 400' };
const tester250 = { model: 'tester', steps: 250, command: 'npm run pretrain -- --only tester --steps 250' };

describe('carriedHistory', () => {
  it('keeps the Coder stage when the Tester is then trained fresh with --only tester', () => {
    expect(carriedHistory({ history: [coder400] }, false, ['tester'])).toEqual([coder400]);
  });

  it('drops the entries of a model trained again from a fresh initialisation', () => {
    expect(carriedHistory({ history: [coder400, tester250] }, false, ['tester'])).toEqual([coder400]);
    expect(carriedHistory({ history: [coder400, tester250] }, false, ['coder', 'tester'])).toEqual([]);
  });

  it('keeps everything when the call continues the models (--init)', () => {
    expect(carriedHistory({ history: [coder400, tester250] }, true, ['coder'])).toEqual([coder400, tester250]);
  });

  it('ignores a record without a history and entries that name no model', () => {
    expect(carriedHistory({}, true, ['coder'])).toEqual([]);
    expect(carriedHistory(null, true, ['coder'])).toEqual([]);
    expect(carriedHistory({ history: [{ steps: 3 }, 7, coder400] }, true, ['tester'])).toEqual([coder400]);
  });
});
