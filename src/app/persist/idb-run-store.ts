// IndexedDB persistence: the trainer's RunStore (the same files the CLI writes to runs/NAME/) per run, plus a
// registry of runs and which one is current. Used by both the training Worker and the page.
import type { RunStore } from '../../run/run-store';
import type { RunConfigUi } from '../config/run-config';

const DB_NAME = 'code-a1-lab';
const DB_VERSION = 1;
const FILES = 'files';
const RUNS = 'runs';
const META = 'meta';

export interface RunMeta {
  runId: string;
  label: string;
  config: RunConfigUi;
  createdAt: number;
  updatedAt: number;
  /** Steps committed to storage. */
  step: number;
}

let dbPromise: Promise<IDBDatabase> | null = null;

export function openDb(): Promise<IDBDatabase> {
  if (!dbPromise) {
    dbPromise = new Promise((resolve, reject) => {
      const req = indexedDB.open(DB_NAME, DB_VERSION);
      req.onupgradeneeded = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains(FILES)) db.createObjectStore(FILES);
        if (!db.objectStoreNames.contains(RUNS)) db.createObjectStore(RUNS, { keyPath: 'runId' });
        if (!db.objectStoreNames.contains(META)) db.createObjectStore(META);
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(new Error(`IndexedDB '${DB_NAME}' could not be opened: ${req.error?.message}`));
      req.onblocked = () => reject(new Error(`IndexedDB '${DB_NAME}' is blocked by another tab`));
    });
  }
  return dbPromise;
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted (storage full?)'));
  });
}

function req<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

function range(prefix: string): IDBKeyRange {
  return IDBKeyRange.bound(prefix, prefix + '\uffff');
}

/** One run's files, keyed `${runId}/${path}`. Promote is one transaction, so a commit is all-or-nothing. */
export class IdbRunStore implements RunStore {
  constructor(readonly runId: string) {}

  private key(path: string): string {
    return `${this.runId}/${path}`;
  }

  async read(path: string): Promise<Uint8Array | undefined> {
    const db = await openDb();
    const v = await req(db.transaction(FILES).objectStore(FILES).get(this.key(path)));
    return v instanceof Uint8Array ? v : undefined;
  }

  async write(path: string, data: Uint8Array): Promise<void> {
    const db = await openDb();
    const tx = db.transaction(FILES, 'readwrite');
    tx.objectStore(FILES).put(data.slice(), this.key(path));
    await done(tx);
  }

  async append(path: string, data: Uint8Array): Promise<void> {
    const db = await openDb();
    const tx = db.transaction(FILES, 'readwrite');
    const store = tx.objectStore(FILES);
    const get = store.get(this.key(path));
    get.onsuccess = () => {
      const old = get.result instanceof Uint8Array ? get.result : new Uint8Array(0);
      const out = new Uint8Array(old.length + data.length);
      out.set(old, 0);
      out.set(data, old.length);
      store.put(out, this.key(path));
    };
    await done(tx);
  }

  async list(prefix: string): Promise<string[]> {
    const db = await openDb();
    const full = this.key(prefix);
    const keys = await req(db.transaction(FILES).objectStore(FILES).getAllKeys(range(full)));
    return keys.map((k) => String(k).slice(full.length)).sort();
  }

  async remove(prefix: string): Promise<void> {
    const db = await openDb();
    const tx = db.transaction(FILES, 'readwrite');
    tx.objectStore(FILES).delete(range(this.key(prefix)));
    await done(tx);
  }

  async promote(from: string, to: string): Promise<void> {
    const db = await openDb();
    const tx = db.transaction(FILES, 'readwrite');
    const store = tx.objectStore(FILES);
    const src = this.key(from);
    const dst = this.key(to);
    store.delete(range(dst));
    const cur = store.openCursor(range(src));
    cur.onsuccess = () => {
      const c = cur.result;
      if (!c) return;
      store.put(c.value, dst + String(c.key).slice(src.length));
      c.delete();
      c.continue();
    };
    await done(tx);
  }

  /** Every file of the run (for bundle export). */
  async readAll(): Promise<Record<string, Uint8Array>> {
    const out: Record<string, Uint8Array> = {};
    for (const name of await this.list('')) {
      const b = await this.read(name);
      if (b) out[name] = b;
    }
    return out;
  }

  /** Replaces the run's files by `files` in one transaction (bundle import). */
  async replaceAll(files: Record<string, Uint8Array>): Promise<void> {
    const db = await openDb();
    const tx = db.transaction(FILES, 'readwrite');
    const store = tx.objectStore(FILES);
    store.delete(range(this.key('')));
    for (const [name, data] of Object.entries(files)) store.put(data, this.key(name));
    await done(tx);
  }
}

export async function putRunMeta(m: RunMeta): Promise<void> {
  const db = await openDb();
  const tx = db.transaction([RUNS, META], 'readwrite');
  tx.objectStore(RUNS).put(m);
  tx.objectStore(META).put(m.runId, 'current');
  await done(tx);
}

export async function getRunMeta(runId: string): Promise<RunMeta | undefined> {
  const db = await openDb();
  return (await req(db.transaction(RUNS).objectStore(RUNS).get(runId))) as RunMeta | undefined;
}

export async function listRuns(): Promise<RunMeta[]> {
  const db = await openDb();
  const all = (await req(db.transaction(RUNS).objectStore(RUNS).getAll())) as RunMeta[];
  return all.sort((a, b) => b.updatedAt - a.updatedAt);
}

export async function currentRunId(): Promise<string | undefined> {
  const db = await openDb();
  const v = await req(db.transaction(META).objectStore(META).get('current'));
  return typeof v === 'string' ? v : undefined;
}

export async function deleteRun(runId: string): Promise<void> {
  const db = await openDb();
  const tx = db.transaction([RUNS, FILES], 'readwrite');
  tx.objectStore(RUNS).delete(runId);
  tx.objectStore(FILES).delete(range(`${runId}/`));
  await done(tx);
}
