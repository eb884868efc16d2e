// The smaller initial memory: the rewritten module is valid, starts with the asked-for size and keeps everything else
// (its maximum, its code); modules it does not apply to are left alone; instantiate is restored after loading.
import { describe, expect, it } from 'vitest';
import { freshSeed, mulberry32 } from '../testing/random';
import { encodeLeb, withInitialMemory, withSmallerMemory } from './wasm-memory';

const leb = encodeLeb;

/** Signed LEB128 of a non-negative value (i32.const). */
const sleb = (v: number): number[] => {
  const out = leb(v);
  if (out[out.length - 1] & 0x40) {
    out[out.length - 1] |= 128;
    out.push(0);
  }
  return out;
};

/**
 * A module with one exported memory (initial, optional maximum), an exported function `size()` = memory.size and,
 * with `dataAt`, one byte of static data at that address.
 */
function module(initial: number, maximum?: number, dataAt?: number): Uint8Array<ArrayBuffer> {
  const limits = maximum === undefined ? [0, ...leb(initial)] : [1, ...leb(initial), ...leb(maximum)];
  const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body];
  const name = (s: string) => [s.length, ...[...s].map((c) => c.charCodeAt(0))];
  return new Uint8Array([
    ...[0, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
    ...section(1, [1, 0x60, 0, 1, 0x7f]), // type: () -> i32
    ...section(3, [1, 0]), // one function of that type
    ...section(5, [1, ...limits]),
    ...section(7, [2, ...name('mem'), 2, 0, ...name('size'), 0, 0]),
    ...section(10, [1, 4, 0, 0x3f, 0, 0x0b]), // memory.size
    ...(dataAt === undefined ? [] : section(11, [1, 0, 0x41, ...sleb(dataAt), 0x0b, 1, 42])),
  ]);
}

async function instantiate(bytes: Uint8Array<ArrayBuffer>) {
  const { instance } = await WebAssembly.instantiate(bytes);
  const x = instance.exports as { mem: WebAssembly.Memory; size(): number };
  return { pages: x.mem.buffer.byteLength / 65536, size: x.size(), mem: x.mem };
}

describe('withInitialMemory', () => {
  it('lowers the initial size and keeps the maximum and the code, for random sizes', async () => {
    const seed = freshSeed();
    const rand = mulberry32(seed);
    for (let k = 0; k < 20; k++) {
      // LEB128 lengths of old and new size differ in some draws (1 or 2 bytes): the section is re-encoded.
      const initial = 2 + Math.floor(rand() * 3000);
      const pages = 1 + Math.floor(rand() * (initial - 1));
      const max = rand() < 0.5 ? undefined : initial + Math.floor(rand() * 1000);
      const out = withInitialMemory(module(initial, max), pages);
      expect(out, `seed ${seed}`).toBeDefined();
      const m = await instantiate(out as Uint8Array<ArrayBuffer>);
      expect(m.pages, `seed ${seed}: ${initial} -> ${pages}`).toBe(pages);
      expect(m.size).toBe(pages);
      if (max !== undefined) {
        expect(() => m.mem.grow(max - pages)).not.toThrow();
        expect(() => m.mem.grow(1)).toThrow(RangeError);
      }
    }
  });

  it('leaves alone what it does not apply to', () => {
    expect(withInitialMemory(module(10), 10)).toBeUndefined();
    expect(withInitialMemory(module(10), 20)).toBeUndefined();
    expect(withInitialMemory(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]), 1)).toBeUndefined();
    const noMemory = module(10).filter(() => true);
    noMemory[0] = 1; // not the wasm magic
    expect(withInitialMemory(noMemory, 1)).toBeUndefined();
  });

  it('withSmallerMemory applies while loading only, to bytes and to streamed responses', async () => {
    const real = WebAssembly.instantiate;
    const inside = await withSmallerMemory(3, async () => {
      const a = await instantiate(module(40));
      const { instance } = await WebAssembly.instantiateStreaming(
        new Response(module(50), { headers: { 'content-type': 'application/wasm' } }),
      );
      return [a.pages, (instance.exports as { size(): number }).size()];
    });
    expect(inside).toEqual([3, 3]);
    // Static data above the lowered size would not fit: the module is instantiated as it came.
    const fallback = await withSmallerMemory(3, () => instantiate(module(40, undefined, 5 * 65536)));
    expect(fallback.pages).toBe(40);
    expect(new Uint8Array(fallback.mem.buffer)[5 * 65536]).toBe(42);
    expect(WebAssembly.instantiate).toBe(real);
    expect((await instantiate(module(40))).pages).toBe(40);
  });
});
