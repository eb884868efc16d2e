// docs/cli.md is what the commands' --help print today, and the README stays a one-page entry that links into it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI_DOC, collectHelp, listCommands, renderCliDoc } from './cli-doc';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (f: string) => readFileSync(join(root, f), 'utf8');

/** GitHub's anchor for a Markdown heading. */
const slug = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');

describe('docs/cli.md', () => {
  it("is exactly the commands' --help output (regenerate: npx tsx scripts/cli-doc.ts)", async () => {
    const fresh = renderCliDoc(await collectHelp(root));
    expect(read(CLI_DOC)).toBe(fresh);
  }, 600_000);

  it('has a section for every tsx command of package.json and every experiment script', () => {
    const headings = new Set([...read(CLI_DOC).matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]));
    for (const c of listCommands(root)) expect(headings, c.title).toContain(c.title);
  });
});

describe('README.md', () => {
  const readme = read('README.md');

  it('fits on a few screens: at most 12 KB, no table cell over 200 characters', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(12 * 1024);
    const cells = readme
      .split('\n')
      .filter((l) => l.startsWith('|'))
      .flatMap((l) => l.split(' | '));
    expect(cells.filter((c) => c.length > 200)).toEqual([]);
  });

  it('links only to files that exist and to headings docs/cli.md has', () => {
    const anchors = new Set([...read(CLI_DOC).matchAll(/^#{1,3} (.+)$/gm)].map((m) => slug(m[1])));
    for (const [, target] of readme.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^https?:/.test(target)) continue;
      const [file, anchor] = target.split('#');
      expect(existsSync(join(root, file)), target).toBe(true);
      if (file === CLI_DOC && anchor) expect(anchors, target).toContain(anchor);
    }
  });

  it('names every command package.json runs through tsx in its command table', () => {
    for (const c of listCommands(root).filter((e) => e.section !== 'scripts')) {
      const name = c.title.replace('npm run ', '');
      const row = name.startsWith('bench:') ? '`npm run bench:*`' : `\`${c.title}\``;
      expect(readme, name).toContain(row);
    }
  });

  it('keeps the two set-up commands and never points outside the repository', () => {
    expect(readme).toContain('npm start');
    expect(readme).toContain('npm test');
    expect(readme).not.toMatch(/\.\.\/shared/);
  });
});
