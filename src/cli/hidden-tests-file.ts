// `npm run train -- --hidden-tests FILE.jsonl`: reads and checks the file against the run's training problems, and on
// --resume reads the copy the run keeps (hidden-tests.jsonl), so a resumed run trains against the same tests.
import { readFile } from 'node:fs/promises';
import type { TrainConfig } from '../rl/config';
import { runProblems } from '../run/lab-setup';
import type { RunStore } from '../run/run-store';
import { replaceHiddenTests, type HiddenTestsOverride } from '../tasks/hidden-tests';

export const HIDDEN_TESTS_FILE = 'hidden-tests.jsonl';

/** The override from `file` (a new run) or from the run directory's copy (resume); undefined when neither. */
export async function readHiddenTests(
  config: TrainConfig,
  store: RunStore,
  file: string | undefined,
): Promise<{ text: string; override: HiddenTestsOverride } | undefined> {
  let text: string;
  if (file !== undefined) {
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      throw new Error(`--hidden-tests ${file}: cannot read it (${e instanceof Error ? e.message : String(e)})`);
    }
  } else {
    const kept = await store.read(HIDDEN_TESTS_FILE);
    if (!kept) return undefined;
    text = new TextDecoder().decode(kept);
  }
  const { trainProblems, heldout, heldoutFamily } = runProblems(config);
  try {
    return { text, override: replaceHiddenTests(trainProblems, text, [...heldout, ...heldoutFamily]) };
  } catch (e) {
    throw new Error(`--hidden-tests ${file ?? HIDDEN_TESTS_FILE}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
