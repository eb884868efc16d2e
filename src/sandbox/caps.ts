// Size caps on a Tester completion before extraction: long lines and text past the completion cap are rejected
// (one entry per line, so every assert line is still accounted for) and never reach the Python parser.
import type { RejectedLine } from './types';

export const LINE_CAP = 2000;
export const COMPLETION_CAP = 64 * 1024;
export const LINES_CAP = 2000;

/** The text extraction may parse, and the rejected lines it dropped. Linear in the input. */
export function capCompletion(raw: string): { text: string; rejected: RejectedLine[] } {
  const lines = raw.replace(/\r\n/g, '\n').split('\n');
  const kept: string[] = [];
  const rejected: RejectedLine[] = [];
  let size = 0;
  for (const line of lines) {
    if (kept.length >= LINES_CAP || size + line.length > COMPLETION_CAP) {
      if (line.trim()) rejected.push({ line: line.slice(0, 200), reason: 'completion too long' });
      continue;
    }
    if (line.length > LINE_CAP) {
      rejected.push({ line: line.slice(0, 200), reason: `line longer than ${LINE_CAP} characters` });
      kept.push('');
      continue;
    }
    kept.push(line);
    size += line.length + 1;
  }
  return { text: kept.join('\n'), rejected };
}

/** Every non-blank line (fences and comments aside) rejected with one reason: extraction did not finish. */
export function rejectAll(text: string, reason: string): RejectedLine[] {
  return text
    .split('\n')
    .filter((l) => l.trim() && !l.trim().startsWith('```') && !l.trim().startsWith('#'))
    .map((l) => ({ line: l.slice(0, 200), reason }));
}
