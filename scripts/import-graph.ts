// The repository's module import graph (TypeScript's own parser and resolver) and its cycles, for the no-cycle test.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** Module path (relative to the root, '/'-separated) → the repository modules it imports. */
export type ImportGraph = Map<string, string[]>;

const options: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowJs: false,
  resolveJsonModule: false,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/**
 * Every `import`/`export … from`/`import()` edge between .ts/.tsx files under `dirs`, type-only ones too: a cycle
 * through types or a lazy import still means neither module can be read, tested or moved without the other.
 */
export function importGraph(
  root: string,
  dirs: readonly string[],
  host: ts.ModuleResolutionHost = ts.sys,
): ImportGraph {
  const graph: ImportGraph = new Map();
  const files = dirs.flatMap((d) => sourceFiles(join(root, d)));
  const known = new Set(files);
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, false);
    const edges = new Set<string>();
    for (const ref of info.importedFiles) {
      const resolved = ts.resolveModuleName(ref.fileName, file, options, host).resolvedModule?.resolvedFileName;
      if (resolved && known.has(resolved)) edges.add(relative(root, resolved).split('\\').join('/'));
    }
    graph.set(relative(root, file).split('\\').join('/'), [...edges].sort());
  }
  return graph;
}

/** The strongly connected components with more than one module (or a self-import): each is an import cycle. */
export function importCycles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative so deep graphs cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1];
      const edges = graph.get(top.node) ?? [];
      if (top.edge < edges.length) {
        const to = edges[top.edge++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) !== index.get(top.node)) continue;
      const scc: string[] = [];
      let m: string;
      do {
        m = stack.pop()!;
        onStack.delete(m);
        scc.push(m);
      } while (m !== top.node);
      if (scc.length > 1 || edges.includes(top.node)) out.push(scc.sort());
    }
  }
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}
