// The whole-interpreter reset puts back every byte a job changed, wherever it wrote: a one-byte change to a heap
// object, a new module, a grown and shrunk heap, and arbitrary byte writes (what a memory-corruption exploit could
// do) in the static data, the heap, past the break and in memory the job grew. Both restore paths: pages compared
// with the snapshot and only the changed ones written (Node), and everything written (no byte compare).
import { loadPyodide, type PyodideAPI } from 'pyodide';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSeed, mulberry32 } from '../testing/random';
import { nodeBytesEqual } from './bytes-node';
import { InterpreterSnapshot, type BytesEqual } from './snapshot';

interface Em {
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  _emscripten_get_sbrk_ptr(): number;
}

let py: PyodideAPI;
let mod: Em;
beforeAll(async () => {
  py = await loadPyodide({
    jsglobals: Object.create(null) as object,
    env: { HOME: '/home/pyodide' },
    stdout: () => {},
    stderr: () => {},
  });
  mod = (py as unknown as { _module: Em })._module;
}, 120_000);

const sbrk = () => mod.HEAPU32[mod._emscripten_get_sbrk_ptr() >>> 2];

/** First index where memory differs from `want` (outside [skip0, skip1)), zeros expected past want's end; -1 if none. */
function firstDiff(want: Uint8Array, skip0: number, skip1: number): number {
  const heap = mod.HEAPU8;
  for (let i = 0; i < heap.length; i++) {
    if (i === skip0) i = skip1;
    if (heap[i] !== (i < want.length ? want[i] : 0)) return i;
  }
  return -1;
}

describe.each<[string, BytesEqual | undefined]>([
  ['changed pages written back', nodeBytesEqual],
  ['every page written back', undefined],
])('InterpreterSnapshot: %s', (_mode, compare) => {
  it('every byte a job changed is back after restore()', () => {
    const seed = freshSeed();
    const rand = mulberry32(seed);
    console.log(`seed ${seed}`);
    py.runPython('import gc, sys\nprobe = [1, 2, 3]\nbuf = bytearray(b"a" * 100)\ngc.collect()');
    const snap = new InterpreterSnapshot(py, compare, undefined, false);
    snap.take();
    const want = mod.HEAPU8.slice();
    const brk = sbrk();
    // The C stack below the stack pointer is dead between calls and not part of the snapshot.
    const [g0, g1] = (snap as unknown as { gap: [number, number] }).gap;
    for (let round = 0; round < 4; round++) {
      // A one-byte change to a heap object: a restore that skipped its page would leave buf[50] == ord('b').
      // Round 0 grows memory past its length at the snapshot (later rounds reuse that memory: it never shrinks).
      const grow = round === 0 ? mod.HEAPU8.length - sbrk() + 4 * 2 ** 20 : 3 * 2 ** 20;
      py.runPython(
        `buf[50] = 98\nprobe.append(4)\nprobe[0] = "x" * 5000\nimport fractions\nbig = bytearray(${grow})\nbig[-1] = 7\ndel big`,
      );
      const heap = mod.HEAPU8;
      expect(heap.length).toBeGreaterThan(want.length);
      // Arbitrary single-byte writes: static data, heap, just below and just past the break (changed ranges on both
      // sides of it, which must not be merged into one copy from the snapshot), the grown part, the last byte.
      const spots = [
        Math.floor(rand() * g0),
        g1 + Math.floor(rand() * (brk - g1)),
        brk - 1 - Math.floor(rand() * 64),
        brk + Math.floor(rand() * 64),
        want.length + Math.floor(rand() * (heap.length - want.length)),
        heap.length - 1,
      ];
      for (let k = 0; k < 24; k++)
        spots.push(rand() < 0.3 ? Math.floor(rand() * g0) : g1 + Math.floor(rand() * (heap.length - g1)));
      for (const a of spots) heap[a] = (heap[a] + 1 + Math.floor(rand() * 255)) & 255;
      const b0 = snap.cost.restoredBytes;
      snap.dirty = true;
      snap.restore();
      const at = firstDiff(want, g0, g1);
      expect(at, `memory differs at ${at} (round ${round}, seed ${seed})`).toBe(-1);
      expect(py.runPython('(buf[50], probe, "fractions" in sys.modules, "big" in globals())').toJs()).toEqual([
        97,
        [1, 2, 3],
        false,
        false,
      ]);
      // With a byte compare only changed pages are written: the grown memory (zeros but for `big[-1]` and the
      // malloc headers) and the pages the job touched, far less than the ~20 MiB a full write-back costs.
      if (compare) expect(snap.cost.restoredBytes - b0).toBeLessThan(8 * 2 ** 20);
      else expect(snap.cost.restoredBytes - b0).toBeGreaterThanOrEqual(mod.HEAPU8.length - (g1 - g0));
    }
  }, 120_000);
});

describe('InterpreterSnapshot: adaptive restore', () => {
  it('probes both methods each round of restores, keeps the one that timed cheaper, and every restore is exact', () => {
    // A clock that advances one unit per read: a compare reads it twice per 1 MiB, a full write twice in all, so
    // writing everything times cheaper and must be chosen for the rest of each round.
    let t = 0;
    const snap = new InterpreterSnapshot(py, nodeBytesEqual, () => t++);
    py.runPython('import gc\nprobe2 = [1]\ngc.collect()');
    snap.take();
    const want = mod.HEAPU8.slice(0, sbrk());
    const [g0, g1] = (snap as unknown as { gap: [number, number] }).gap;
    for (let k = 0; k < 70; k++) {
      py.runPython(`probe2.append(${k})\nx = "y" * ${1000 + k}`);
      snap.dirty = true;
      snap.restore();
      expect(firstDiff(want, g0, g1), `restore ${k}`).toBe(-1);
      // Round 0: 4 compares, 4 full writes (probes), then full writes; round 1 starts with 4 compares again.
      const expected = k < 4 ? 0 : k < 64 ? k - 3 : k < 68 ? 60 : 60 + (k - 67);
      expect(snap.cost.copies, `restore ${k}`).toBe(expected);
    }
    expect(py.runPython('probe2').toJs()).toEqual([1]);
  }, 120_000);
});
