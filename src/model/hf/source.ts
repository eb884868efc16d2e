// Where a Hugging Face model directory's files come from: byte ranges and texts by relative path, platform-neutral.
//
// Adapters: a folder on disk (source-node.ts), picked files or any Blobs (blobSource, Node and browser alike), and
// later the hub over HTTP range requests. The importer reads one tensor's byte range at a time, so no adapter ever
// needs the whole file in memory.

export interface HfSource {
  /** For messages: the folder, repo id or "picked files". */
  readonly label: string;
  /** Byte size of a file, or undefined when it does not exist. */
  size(path: string): Promise<number | undefined>;
  /** Bytes [offset, offset + length) of a file; throws when the range is outside it. */
  read(path: string, offset: number, length: number): Promise<Uint8Array>;
}

/** A file's text, or undefined when it does not exist. */
export async function readText(src: HfSource, path: string): Promise<string | undefined> {
  const n = await src.size(path);
  if (n === undefined) return undefined;
  return new TextDecoder().decode(await src.read(path, 0, n));
}

/** A file's parsed JSON, or undefined when it does not exist; bad JSON is an error naming the file. */
export async function readJson(src: HfSource, path: string): Promise<unknown> {
  const text = await readText(src, path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new Error(`${src.label}/${path}: not valid JSON (${(e as Error).message})`);
  }
}

/**
 * Files as Blobs by relative path (a folder picker's File objects with webkitRelativePath stripped of the folder,
 * or Blobs built in memory). Blob.slice reads only the asked range.
 */
export function blobSource(files: Map<string, Blob>, label = 'picked files'): HfSource {
  return {
    label,
    size: (path) => Promise.resolve(files.get(path)?.size),
    async read(path, offset, length) {
      const blob = files.get(path);
      if (!blob) throw new Error(`${label}: no file '${path}'`);
      if (offset < 0 || length < 0 || offset + length > blob.size) {
        throw new Error(
          `${label}/${path}: bytes ${offset}..${offset + length} are outside the file (${blob.size} bytes)`,
        );
      }
      return new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer());
    },
  };
}
