// Node adapter: a Hugging Face model folder on disk as an HfSource (positioned reads, one range at a time).
import { open, stat } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import type { HfSource } from './source';

export function dirSource(dir: string): HfSource {
  const resolve = (path: string): string => {
    const rel = normalize(path);
    if (rel.startsWith('..') || rel.startsWith(sep)) throw new Error(`${dir}: path '${path}' leaves the model folder`);
    return join(dir, rel);
  };
  return {
    label: dir,
    async size(path) {
      try {
        const s = await stat(resolve(path));
        return s.isFile() ? s.size : undefined;
      } catch {
        return undefined;
      }
    },
    async read(path, offset, length) {
      const fh = await open(resolve(path), 'r');
      try {
        const size = (await fh.stat()).size;
        if (offset < 0 || length < 0 || offset + length > size)
          throw new Error(`${dir}/${path}: bytes ${offset}..${offset + length} are outside the file (${size} bytes)`);
        const out = new Uint8Array(length);
        let done = 0;
        while (done < length) {
          const { bytesRead } = await fh.read(out, done, length - done, offset + done);
          if (bytesRead === 0) throw new Error(`${dir}/${path}: file ended at byte ${offset + done}`);
          done += bytesRead;
        }
        return out;
      } finally {
        await fh.close();
      }
    },
  };
}
