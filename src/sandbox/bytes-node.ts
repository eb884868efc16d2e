// Range compare for the Node sandbox worker: memcmp through Buffer.prototype.compare with offsets, taken at import
// (before the worker realm is locked down), with one Buffer view per array instead of two new views per call.
import type { BytesEqual } from './snapshot';

const compare = Buffer.prototype.compare;
const bufferOf = Buffer.from;
const views = new WeakMap<Uint8Array, Buffer>();

function view(a: Uint8Array): Buffer {
  let v = views.get(a);
  if (!v) {
    v = bufferOf(a.buffer, a.byteOffset, a.byteLength);
    views.set(a, v);
  }
  return v;
}

export const nodeBytesEqual: BytesEqual = (a, aFrom, b, bFrom, len) =>
  compare.call(view(a), view(b), bFrom, bFrom + len, aFrom, aFrom + len) === 0;
