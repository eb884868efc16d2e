// Every launcher's uniform list (order, names, types, count) against the `struct U` its shader entry point reads.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import type { KernelSpec } from './launcher';
import { checkUniformLayout, parseStruct } from './uniform-layout';

// Records each real Kernel's spec as the launcher modules construct it (the Kernel itself is unchanged).
const specs = vi.hoisted(() => [] as KernelSpec<string>[]);
vi.mock('./launcher', async (importOriginal) => {
  const real = await importOriginal<typeof import('./launcher')>();
  class RecordingKernel<U extends string> extends real.Kernel<U> {
    constructor(spec: KernelSpec<U>) {
      super(spec);
      specs.push(spec as KernelSpec<string>);
    }
  }
  return { ...real, Kernel: RecordingKernel };
});

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')
        ? [join(dir, e.name)]
        : [],
  );
}

/** Every non-test module under src that constructs a Kernel: adding a launcher anywhere puts it under this test. */
const launcherModules = sourceFiles(join(root, 'src')).filter((f) => /new Kernel\b/.test(readFileSync(f, 'utf8')));

const FIXTURE = `
struct U { M: u32, N: u32, alpha: f32, pad: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) { y[gid.x] = u.alpha * f32(u.M + u.N); }
`;
const FIXTURE_UNIFORMS = [
  ['M', 'u32'],
  ['N', 'u32'],
  ['alpha', 'f32'],
  ['pad', 'u32'],
] as const;

describe('uniform layout checker', () => {
  it('accepts a matching launcher list', () => {
    expect(parseStruct(FIXTURE, 'U')).toEqual(FIXTURE_UNIFORMS.map(([name, type]) => ({ name, type })));
    expect(checkUniformLayout(FIXTURE, 'main', FIXTURE_UNIFORMS)).toEqual([]);
  });

  it('fails on a swapped field, a retyped field, a missing field and a storage buffer at binding 0', () => {
    const swapped = [FIXTURE_UNIFORMS[0], FIXTURE_UNIFORMS[2], FIXTURE_UNIFORMS[1], FIXTURE_UNIFORMS[3]] as const;
    expect(checkUniformLayout(FIXTURE, 'main', swapped)).toEqual([
      "field 1: shader 'N: u32', launcher 'alpha: f32'",
      "field 2: shader 'alpha: f32', launcher 'N: u32'",
    ]);
    const retyped = FIXTURE_UNIFORMS.map(([n, t]) => [n, n === 'alpha' ? 'u32' : t] as const);
    expect(checkUniformLayout(FIXTURE, 'main', retyped)).toEqual([
      "field 2: shader 'alpha: f32', launcher 'alpha: u32'",
    ]);
    expect(checkUniformLayout(FIXTURE, 'main', FIXTURE_UNIFORMS.slice(0, 3))[0]).toBe(
      'struct U has 4 fields, the launcher packs 3',
    );
    const storage0 = FIXTURE.replace('var<uniform> u: U', 'var<storage, read> u: U').replace(
      '@binding(1)',
      '@binding(2)',
    );
    expect(checkUniformLayout(storage0, 'main', [])).toContain(
      'binding 0 is a storage buffer; the launcher reserves it for the uniform struct',
    );
    expect(checkUniformLayout(FIXTURE, 'nope', FIXTURE_UNIFORMS)).toEqual(["entry point 'nope' not found"]);
    // A padding slot may carry another name, but not another type, and a read field may not be renamed.
    const padRenamed = FIXTURE_UNIFORMS.map(([n, t]) => [n === 'pad' ? 'rows' : n, t] as const);
    expect(checkUniformLayout(FIXTURE, 'main', padRenamed)).toEqual([]);
    const nRenamed = FIXTURE_UNIFORMS.map(([n, t]) => [n === 'N' ? 'K' : n, t] as const);
    expect(checkUniformLayout(FIXTURE, 'main', nRenamed)).toEqual(["field 1: shader 'N: u32', launcher 'K: u32'"]);
  });

  it('picks the struct the entry point reads when a file has one uniform per entry point', () => {
    const two = `${FIXTURE}
struct F { n: u32, value: f32 }
@group(0) @binding(0) var<uniform> fu: F;
@compute @workgroup_size(64)
fn fill(@builtin(global_invocation_id) gid: vec3<u32>) { y[gid.x] = fu.value; }`;
    expect(
      checkUniformLayout(two, 'fill', [
        ['n', 'u32'],
        ['value', 'f32'],
      ]),
    ).toEqual([]);
    expect(
      checkUniformLayout(two, 'fill', [
        ['value', 'f32'],
        ['n', 'u32'],
      ]),
    ).toHaveLength(2);
  });
});

describe('every launcher matches its shader', async () => {
  for (const file of launcherModules) await import(/* @vite-ignore */ file);
  const { quadSource } = await import('./kernels/qmatmul');

  it('found the launchers', () => {
    expect(launcherModules.length).toBeGreaterThan(15);
    expect(specs.length).toBeGreaterThanOrEqual(launcherModules.length);
  });

  it('covers every shader with a uniform struct', () => {
    const shaderDir = join(root, 'shaders');
    const uncovered = readdirSync(shaderDir)
      .filter((f) => f.endsWith('.wgsl'))
      .filter((f) => /var<uniform>/.test(readFileSync(join(shaderDir, f), 'utf8')))
      .filter((f) => !specs.some((s) => s.source.includes(readFileSync(join(shaderDir, f), 'utf8').trim())))
      .filter((f) => !(f === 'qmatmul_quad.wgsl')); // spliced into qmatmul.wgsl by quadSource, checked below
    expect(uncovered).toEqual([]);
  });

  it.each(
    specs.flatMap((s, i) => {
      const checks = [{ label: `#${i} ${s.family}.${s.entryPoint ?? 'main'}`, source: s.source, spec: s }];
      if (s.family === 'qmatmul') checks.push({ label: 'qmatmul.main (quads)', source: quadSource(s.source), spec: s });
      return checks;
    }),
  )('$label', ({ source, spec }) => {
    expect(checkUniformLayout(source, spec.entryPoint ?? 'main', spec.uniforms)).toEqual([]);
  });
});
