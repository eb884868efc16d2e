// Every package in package-lock.json accepts the Node versions the lab says it runs on (package.json's engines, at
// its lowest version) and the Node running this test: an install on a supported Node never warns EBADENGINE.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// semver is npm's own range matcher (a pinned devDependency), so the check reads ranges exactly as npm does.
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string, opts?: { includePrerelease?: boolean }): boolean;
  minVersion(range: string): { version: string } | null;
};

interface LockEntry {
  version?: string;
  engines?: Record<string, string> | string[];
}

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockEntry> };
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };

/** Lock entries whose engines.node does not accept `version`, as 'name@version needs range'. */
export function engineMismatches(packages: Record<string, LockEntry>, version: string): string[] {
  const out: string[] = [];
  for (const [path, e] of Object.entries(packages)) {
    if (!path) continue; // the project itself
    const range = e.engines && !Array.isArray(e.engines) ? e.engines.node : undefined;
    if (range && !semver.satisfies(version, range, { includePrerelease: true }))
      out.push(`${path.replace(/^.*node_modules\//, '')}@${e.version ?? '?'} needs node ${range}`);
  }
  return out;
}

describe('dependency engines', () => {
  const floor = semver.minVersion(pkg.engines.node)?.version ?? '';

  it(`every locked package accepts the lowest supported Node (package.json engines ${pkg.engines.node})`, () => {
    expect(floor).not.toBe('');
    expect(engineMismatches(lock.packages, floor)).toEqual([]);
  });

  it(`every locked package accepts the running Node (${process.versions.node})`, () => {
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
    expect(engineMismatches(lock.packages, process.versions.node)).toEqual([]);
  });

  it('the check sees a mismatch (a package that needs a newer Node than the floor)', () => {
    const needsNewer = { 'node_modules/x': { version: '1.0.0', engines: { node: '>=22.12.0' } } };
    expect(engineMismatches(needsNewer, floor)).toEqual(['x@1.0.0 needs node >=22.12.0']);
  });
});
