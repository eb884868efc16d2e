// Node adapter for RunStore: a directory on disk, with atomic writes (temp file + rename) and directory promotion.
import { appendFile, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import type { RunStore } from './run-store';

export class NodeRunStore implements RunStore {
  constructor(readonly root: string) {}

  private p(path: string): string {
    return join(this.root, path);
  }

  async read(path: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readFile(this.p(path)));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  async write(path: string, data: Uint8Array): Promise<void> {
    const full = this.p(path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full + '.tmp', data);
    await rename(full + '.tmp', full);
  }

  async append(path: string, data: Uint8Array): Promise<void> {
    await mkdir(dirname(this.p(path)), { recursive: true });
    await appendFile(this.p(path), data);
  }

  async list(prefix: string): Promise<string[]> {
    const dir = this.p(prefix);
    const out: string[] = [];
    const walk = async (d: string) => {
      let ents;
      try {
        ents = await readdir(d, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of ents) {
        if (e.isDirectory()) await walk(join(d, e.name));
        else if (!e.name.endsWith('.tmp')) out.push(relative(dir, join(d, e.name)));
      }
    };
    await walk(dir);
    return out.sort();
  }

  async remove(prefix: string): Promise<void> {
    await rm(this.p(prefix), { recursive: true, force: true });
  }

  async promote(from: string, to: string): Promise<void> {
    const old = this.p(to.replace(/\/$/, '') + '.old');
    await rm(old, { recursive: true, force: true });
    try {
      await rename(this.p(to), old);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    await rename(this.p(from), this.p(to));
    await rm(old, { recursive: true, force: true });
  }
}
