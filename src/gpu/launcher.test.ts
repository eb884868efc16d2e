// Launcher and pipeline cache: override sets matched by value (any key order), one pipeline per distinct set, and
// back-to-back dispatches with the reused bind-group descriptor each reading their own buffers and uniforms.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from './node';
import { Kernel } from './launcher';
import { freshSeed, mulberry32 } from '../testing/random';

const source = `
struct U { n: u32, scale: f32, _p0: u32, _p1: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;
override WG: u32 = 64;
override BIAS: f32 = 0.0;
@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  if (gid.x < u.n) { y[gid.x] = x[gid.x] * u.scale + BIAS; }
}`;

const seed = freshSeed();

/** The test shader's kernel; a different source (a trailing comment) makes a distinct program. */
function testKernel(family: string, src: string): Kernel<'n' | 'scale' | '_p0' | '_p1'> {
  return new Kernel({
    family,
    source: src,
    uniforms: [
      ['n', 'u32'],
      ['scale', 'f32'],
      ['_p0', 'u32'],
      ['_p1', 'u32'],
    ],
  });
}

describe(`launcher (seed ${seed})`, () => {
  it('reuses pipelines by override values and keeps every dispatch on its own buffers and uniforms', async () => {
    const gpu = await sharedNodeGpu();
    const k = testKernel('launcher_test', source);
    const rng = mulberry32(seed);
    const n = 100;
    const before = gpu.pipelines.size;
    const runs = [
      { ov: { WG: 32, BIAS: 1 }, scale: 2 },
      { ov: { BIAS: 1, WG: 32 }, scale: -3 }, // same set, other key order: no new pipeline
      { ov: { WG: 64, BIAS: 0.5 }, scale: 0.25 },
    ];
    const xs = runs.map(() => Float32Array.from({ length: n }, () => rng() * 2 - 1));
    const ins = xs.map((x, i) => gpu.buffer(`lt.x${i}`, x));
    const outs = runs.map((_, i) => gpu.buffer(`lt.y${i}`, n * 4));
    runs.forEach((r, i) =>
      k.dispatch(gpu, {
        buffers: [ins[i], outs[i]],
        uniforms: { n, scale: r.scale, _p0: 0, _p1: 0 },
        workgroups: [Math.ceil(n / r.ov.WG)],
        overrides: r.ov,
      }),
    );
    expect(gpu.pipelines.size - before).toBe(2);
    for (let i = 0; i < runs.length; i++) {
      const got = await gpu.readF32(outs[i], n);
      const want = Float32Array.from(xs[i], (v) => Math.fround(Math.fround(v * runs[i].scale) + runs[i].ov.BIAS));
      let err = 0;
      for (let j = 0; j < n; j++) err = Math.max(err, Math.abs(got[j] - want[j]));
      console.log(`dispatch ${i}: max abs diff ${err.toExponential(2)}`);
      expect(err).toBeLessThan(1e-6);
    }
    [...ins, ...outs].forEach((b) => b.destroy());
  });

  it('warm() compiles ahead with createComputePipelineAsync; the first dispatch then compiles nothing', async () => {
    const gpu = await sharedNodeGpu();
    const k = testKernel('launcher_warm', source + '\n// warm');
    const sets = [
      { WG: 16, BIAS: 2 },
      { BIAS: 2, WG: 16 },
      { WG: 32, BIAS: -1 },
    ];
    expect(await k.warm(gpu, sets)).toBe(2); // two distinct sets
    expect(await k.warm(gpu, sets)).toBe(0); // already cached
    const misses = gpu.pipelines.misses;
    const x = gpu.buffer(
      'lw.x',
      Float32Array.from({ length: 40 }, (_, i) => i),
    );
    const y = gpu.buffer('lw.y', 40 * 4);
    k.dispatch(gpu, {
      buffers: [x, y],
      uniforms: { n: 40, scale: 0.5, _p0: 0, _p1: 0 },
      workgroups: [3],
      overrides: { WG: 16, BIAS: 2 },
    });
    expect(gpu.pipelines.misses).toBe(misses);
    const got = await gpu.readF32(y, 40);
    expect(Array.from(got)).toEqual(Array.from({ length: 40 }, (_, i) => i * 0.5 + 2));
    [x, y].forEach((b) => b.destroy());
  });
  it('a dry-run view dispatches nothing, prefetches the pipeline, and ready() on the device waits for it', async () => {
    const gpu = await sharedNodeGpu();
    const k = testKernel('launcher_dry', source + '\n// dry run');
    const view = gpu.dryRunView();
    expect(view.collecting).toBe(true);
    expect(view.pipelines).toBe(gpu.pipelines);
    const x = gpu.buffer(
      'ld.x',
      Float32Array.from({ length: 40 }, (_, i) => i + 1),
    );
    const y = gpu.buffer(
      'ld.y',
      Float32Array.from({ length: 40 }, () => -7),
    );
    const args = {
      buffers: [x, y],
      uniforms: { n: 40, scale: 2, _p0: 0, _p1: 0 },
      workgroups: [3] as [number],
      overrides: { WG: 16, BIAS: 1 },
    };
    const requested = gpu.pipelines.requested;
    const dispatches = view.dispatches;
    k.dispatch(view, args);
    expect(view.dispatches).toBe(dispatches);
    expect(gpu.pipelines.requested).toBe(requested + 1);
    k.dispatch(view, args); // already in flight: not requested twice
    expect(gpu.pipelines.requested).toBe(requested + 1);
    // The view's dispatch wrote nothing.
    expect(Array.from(await gpu.readF32(y, 40))).toEqual(Array.from({ length: 40 }, () => -7));
    await view.ready(); // immediate on a view
    await gpu.ready();
    expect(gpu.pipelines.has(k.id, args.overrides)).toBe(true);
    const misses = gpu.pipelines.misses;
    k.dispatch(gpu, args);
    expect(gpu.pipelines.misses).toBe(misses);
    expect(Array.from(await gpu.readF32(y, 40))).toEqual(Array.from({ length: 40 }, (_, i) => (i + 1) * 2 + 1));
    view.releaseView();
    expect(() => view.destroy()).toThrow(/releaseView/);
    [x, y].forEach((b) => b.destroy());
  });
});
