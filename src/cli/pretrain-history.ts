// Which entries of an output directory's earlier pretrain.json history still describe the models left in it.
/** One invocation of `npm run pretrain` that trained one model. */
export interface PretrainHistoryEntry {
  model: string;
  [key: string]: unknown;
}

/**
 * A continued warm-start (--init) keeps the whole history. Without --init, the models trained now start from a fresh
 * initialisation, so their earlier entries go; the models this call leaves alone (--only the other one) stay in the
 * directory, and so do their entries (otherwise a staged warm-start, e.g. the Coder then `--only tester`, loses the
 * record of the Coder stage).
 */
export function carriedHistory(
  prev: unknown,
  continued: boolean,
  trainedNow: readonly string[],
): PretrainHistoryEntry[] {
  const hist = (prev as { history?: unknown } | null)?.history;
  if (!Array.isArray(hist)) return [];
  const entries = hist.filter(
    (h): h is PretrainHistoryEntry =>
      typeof h === 'object' && h !== null && typeof (h as { model?: unknown }).model === 'string',
  );
  return continued ? entries : entries.filter((h) => !trainedNow.includes(h.model));
}
