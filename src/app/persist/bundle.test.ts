// Run bundle codec: exact roundtrip including binary checkpoints, and clear errors on every kind of bad file.
import { describe, expect, it } from 'vitest';
import { freshSeed, mulberry32, randomF32 } from '../../testing/random';
import { sampleMetrics, sampleMistakes, sampleRollout } from '../testing/sample-run';
import { BundleError, decodeBundle, encodeBundle, type RunBundle } from './bundle';

function sampleBundle(seed: number): RunBundle {
  const rng = mulberry32(seed);
  const bytes = new Uint8Array(1000 + Math.floor(rng() * 1000)).map(() => Math.floor(rng() * 256));
  return {
    name: 'run-' + seed,
    createdAt: 123,
    config: { preset: 'micro', mode: 'code-a1', seed: 7, overrides: { lr: 1e-5, M: 4 } },
    metrics: sampleMetrics(seed, 5),
    mistakeBook: sampleMistakes(seed, 6),
    rollouts: [sampleRollout(seed, 5)],
    snapshot: {
      step: 5,
      rng: new Uint32Array([seed >>> 0, 2, 3, 4]),
      checkpoints: { coder: bytes, tester: bytes.slice(10) },
      moments: randomF32(33, rng),
      nested: [{ w: new Float64Array([Math.PI, -1]) }],
      nan: NaN,
    },
  };
}

describe('run bundle', () => {
  it('roundtrips metrics, records and binary snapshot data exactly', () => {
    const seed = freshSeed();
    console.log('bundle seed', seed);
    const b = sampleBundle(seed);
    const file = encodeBundle(b);
    const back = decodeBundle(file);
    expect(back).toEqual(b);
    const snap = back.snapshot as { checkpoints: { coder: Uint8Array }; moments: Float32Array; rng: Uint32Array };
    expect(snap.checkpoints.coder).toBeInstanceOf(Uint8Array);
    expect(snap.moments).toBeInstanceOf(Float32Array);
    expect(snap.rng).toBeInstanceOf(Uint32Array);
    console.log('bundle bytes', file.length);
  });

  it('rejects a file that is not a bundle', () => {
    const junk = new TextEncoder().encode('{"this": "is json, not a bundle"}');
    expect(() => decodeBundle(junk)).toThrow(BundleError);
    expect(() => decodeBundle(junk)).toThrow(/signature/);
    expect(() => decodeBundle(new Uint8Array(3))).toThrow(/only 3 bytes/);
  });

  it('rejects a truncated bundle', () => {
    const file = encodeBundle(sampleBundle(5));
    expect(() => decodeBundle(file.subarray(0, file.length - 10))).toThrow(/truncated or corrupt/);
    expect(() => decodeBundle(file.subarray(0, 40))).toThrow(/truncated/);
  });

  it('rejects a bundle whose run is malformed', () => {
    const bad = sampleBundle(9);
    (bad.config as { mode: string }).mode = 'telepathy';
    expect(() => decodeBundle(encodeBundle(bad))).toThrow(/config.mode 'telepathy'/);
    const bad2 = sampleBundle(9);
    (bad2.metrics[2] as { step: unknown }).step = 'x';
    expect(() => decodeBundle(encodeBundle(bad2))).toThrow(/metrics\[2\]/);
  });

  it('refuses to store values it cannot restore', () => {
    const b = sampleBundle(3);
    b.snapshot = { m: new Map() };
    expect(() => encodeBundle(b)).toThrow(/cannot store/);
  });
});
