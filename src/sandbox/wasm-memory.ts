// A smaller initial wasm memory for Pyodide: its binary asks for 30 MiB, of which ~5 MiB are still unused above the
// program break when the snapshot is taken; every restore must read that tail (it has to be zeros again), so a
// module with less initial memory makes every restore cheaper. Memory grows as usual when the interpreter needs it.
// Platform-neutral: instantiate/instantiateStreaming are wrapped only while Pyodide loads.

/** Initial memory for the interpreter: above the ~25 MiB program break at the snapshot, with a little headroom. */
export const INITIAL_MEMORY_PAGES = 416;

function leb(bytes: Uint8Array, at: number): [value: number, next: number] {
  let v = 0;
  let scale = 1;
  let b: number;
  do {
    b = bytes[at++];
    v += (b & 127) * scale;
    scale *= 128;
  } while (b & 128);
  return [v, at];
}

/** Unsigned LEB128, as wasm encodes sizes and counts. */
export function encodeLeb(v: number): number[] {
  const out: number[] = [];
  do {
    let b = v % 128;
    v = Math.floor(v / 128);
    if (v > 0) b |= 128;
    out.push(b);
  } while (v > 0);
  return out;
}

/**
 * The module with the initial size of the one memory it defines lowered to `pages`, or undefined when that does not
 * apply (not a wasm binary, no memory or more than one, or it already starts at or below `pages`).
 */
export function withInitialMemory(wasm: Uint8Array, pages: number): Uint8Array<ArrayBuffer> | undefined {
  const magic = [0, 0x61, 0x73, 0x6d];
  if (wasm.length < 8 || magic.some((b, i) => wasm[i] !== b)) return undefined;
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, body] = leb(wasm, at + 1);
    if (id === 5) {
      const [count, p] = leb(wasm, body);
      const flags = wasm[p];
      // Only the plain case: one memory, 32-bit, not shared (flags 0: no maximum, 1: with a maximum).
      if (count !== 1 || flags > 1) return undefined;
      const [initial, q] = leb(wasm, p + 1);
      if (initial <= pages) return undefined;
      const rest = wasm.subarray(q, body + size);
      const content = [...encodeLeb(1), flags, ...encodeLeb(pages), ...rest];
      const section = [5, ...encodeLeb(content.length), ...content];
      const out = new Uint8Array(wasm.length - (body + size - at) + section.length);
      out.set(wasm.subarray(0, at), 0);
      out.set(section, at);
      out.set(wasm.subarray(body + size), at + section.length);
      return out;
    }
    at = body + size;
  }
  return undefined;
}

type Instantiate = (
  bytes: BufferSource,
  imports?: WebAssembly.Imports,
) => Promise<WebAssembly.WebAssemblyInstantiatedSource>;

/**
 * Runs `load` with WebAssembly.instantiate(Streaming) lowering the initial memory of the modules they are given as
 * bytes; a module that does not instantiate that way (its static data would not fit) is instantiated as it came.
 */
export async function withSmallerMemory<T>(pages: number, load: () => Promise<T>): Promise<T> {
  const wa = WebAssembly as unknown as { instantiate: Instantiate; instantiateStreaming?: unknown };
  const real = wa.instantiate;
  const realStreaming = wa.instantiateStreaming;
  const instantiate = (async (source: unknown, imports?: WebAssembly.Imports) => {
    if (source instanceof WebAssembly.Module) return real(source as unknown as BufferSource, imports);
    const bytes =
      source instanceof ArrayBuffer
        ? new Uint8Array(source)
        : ArrayBuffer.isView(source)
          ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength)
          : undefined;
    const smaller = bytes && withInitialMemory(bytes, pages);
    if (smaller) {
      try {
        return await real(smaller, imports);
      } catch {
        /* e.g. its data segments need more memory: as it came */
      }
    }
    return real(source as BufferSource, imports);
  }) as Instantiate;
  wa.instantiate = instantiate;
  if (realStreaming)
    wa.instantiateStreaming = async (response: PromiseLike<Response> | Response, imports?: WebAssembly.Imports) =>
      instantiate(await (await response).arrayBuffer(), imports);
  try {
    return await load();
  } finally {
    wa.instantiate = real;
    wa.instantiateStreaming = realStreaming;
  }
}
