// The marshal decoder against bytes CPython's `marshal.dumps(value, 2)` wrote (format 2 is stable across versions).
import { describe, expect, it } from 'vitest';
import { marshalEncode, unmarshal } from './marshal';

const hex = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));

describe('unmarshal', () => {
  it('reads every plain builtin type exactly as CPython wrote it', () => {
    const cases: [string, unknown][] = [
      ['4e', null],
      ['54', true],
      ['46', false],
      ['6900000000', ['i', 0]],
      ['69ffffffff', ['i', -1]],
      ['6c03000000000000000200', ['i', 2 ** 31]],
      ['6cfbffffff00000000000000000004', ['I', '-' + (2n ** 70n).toString(16)]],
      ['6c040000000100000000000001', ['I', (2n ** 53n + 1n).toString(16)]],
      ['67000000000000f83f', ['f', 1.5]],
      ['67000000000000f87f', ['f', 'nan']],
      ['67000000000000f0ff', ['f', '-inf']],
      ['79000000000000f03f0000000000000040', ['c', ['f', 1], ['f', 2]]],
      ['730200000000ff', ['y', '00ff']],
      ['750700000061c3a9f09f9880', 'aé😀'],
      // A str with a lone surrogate is tagged: as a JS string '\ud83d\ude00' (two code points) would equal '😀'.
      ['7503000000eda080', ['u', '55296']],
      ['7506000000eda0bdedb880', ['u', '55357,56832']],
      [
        '280200000069010000005b0200000069020000007b690300000075010000007830',
        ['t', ['i', 1], ['l', ['i', 2], ['d', ['i', 3], 'x']]],
      ],
      ['3c0200000069010000006902000000', ['S', ['i', 1], ['i', 2]]],
      ['3e010000006903000000', ['S', ['i', 3]]],
      ['7b30', ['d']],
    ];
    for (const [h, want] of cases) expect([h, unmarshal(hex(h))]).toEqual([h, want]);
    // The encoder the worker uses for arguments writes what it reads back (sets and frozensets both read as 'S').
    for (const [h] of cases) {
      const t = unmarshal(hex(h));
      expect(unmarshal(marshalEncode(t))).toEqual(t);
    }
    expect(Object.is((unmarshal(hex('670000000000000080')) as unknown[])[1], -0)).toBe(true);
  });

  it('refuses code objects, back-references, truncated and trailing data', () => {
    for (const h of [
      '6300000000000000000000000001000000030000',
      '5b02000000da0261627200000000',
      '6900',
      '4e4e',
      '5b05000000',
    ]) {
      expect(() => unmarshal(hex(h))).toThrow();
    }
  });
});
