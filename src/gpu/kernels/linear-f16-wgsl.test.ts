// Static checks of the f16 WGSL, which no CI adapter can compile (SwiftShader has no 'shader-f16'): both variants
// parse with wgsl_reflect, their bindings are the ones the launcher binds, in its order, the native prelude defines
// what the packed one does over the same bytes, and the body they share (which Dawn compiles and runs through the
// packed variant in linear-f16.test.ts) uses no f16 type itself.
import { describe, expect, it, vi } from 'vitest';
import { WgslReflect } from 'wgsl_reflect/wgsl_reflect.module.js';
import bodySource from '../../../shaders/linear_f16.wgsl?raw';
import convertSource from '../../../shaders/convert_f16.wgsl?raw';
import { Kernel } from '../launcher';
import { sharedNodeGpu } from '../node';
import { allocF16Matrix, convertToF16, linearF16, linearF16Source, type F16Variant } from './linear-f16';

function stripComments(wgsl: string): string {
  return wgsl.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
}

/** Storage bindings of group 0 in binding order: name, access, element type and array stride. */
function storage(r: WgslReflect) {
  return r.storage
    .map((s) => {
      const t = s.type as unknown as { format?: { name: string; format?: { name: string } }; stride?: number };
      const el = t.format?.format ? `${t.format.name}<${t.format.format.name}>` : t.format?.name;
      return { group: s.group, binding: s.binding, name: s.name, access: s.access, el, stride: t.stride };
    })
    .sort((a, b) => a.binding - b.binding);
}

/** Labels of the buffers each dispatch bound, recorded on the real launcher (the kernel still runs). */
async function boundLabels(record: () => Promise<void>): Promise<string[][]> {
  const spy = vi.spyOn(Kernel.prototype, 'dispatch');
  try {
    await record();
    return spy.mock.calls.map(([, args]) => args.buffers.map((b) => b.label));
  } finally {
    spy.mockRestore();
  }
}

describe('f16 WGSL (static)', () => {
  const reflect = (v: F16Variant) => new WgslReflect(linearF16Source(v));

  it('both variants parse; `enable f16` comes first in the native one', () => {
    for (const v of ['native', 'packed'] as const) {
      const r = reflect(v);
      expect(r.entry.compute.map((e) => e.name)).toEqual(['main']);
      expect(r.overrides.map((o) => o.name).sort()).toEqual(['NF', 'TM', 'WG']);
    }
    expect(stripComments(linearF16Source('native')).trim().startsWith('enable f16;')).toBe(true);
    expect(stripComments(linearF16Source('packed'))).not.toMatch(/\benable\b|\bf16\b/);
    // The shared body and store_tile use no f16 type: everything f16 is in the two preludes.
    expect(stripComments(bodySource)).not.toMatch(/\bf16\b|\benable\b/);
  });

  it('the same uniform struct and storage bindings in both variants, W 8 bytes per 4 halves either way', () => {
    const [n, p] = [reflect('native'), reflect('packed')];
    const uniform = (r: WgslReflect) =>
      r.uniforms.map((u) => ({
        binding: u.binding,
        size: u.size,
        members: (u.type as unknown as { members: { name: string; offset: number }[] }).members.map((m) => [
          m.name,
          m.offset,
        ]),
      }));
    expect(uniform(n)).toEqual(uniform(p));
    expect(uniform(n)[0].binding).toBe(0);
    expect(storage(n).map((s) => ({ ...s, el: undefined }))).toEqual(storage(p).map((s) => ({ ...s, el: undefined })));
    expect(storage(n).find((s) => s.name === 'w')).toMatchObject({ el: 'vec4<f16>', stride: 8, access: 'read' });
    expect(storage(p).find((s) => s.name === 'w')).toMatchObject({ el: 'vec2<u32>', stride: 8, access: 'read' });
    // The converter writes the layout W is read with.
    const conv = storage(new WgslReflect(convertSource));
    expect(conv.find((s) => s.name === 'dst')).toMatchObject({ el: 'vec2<u32>', stride: 8, access: 'read_write' });
  });

  it('the native prelude defines the packed prelude functions with the same signatures', () => {
    const sig = (r: WgslReflect) =>
      r.functions
        .filter((f) => f.name === 'wLoad' || f.name === 'r16')
        .map((f) => {
          const fn = f as unknown as { arguments: { type: { name: string } }[]; returnType?: { name: string } };
          return [f.name, fn.arguments.map((a) => a.type.name), fn.returnType?.name];
        });
    expect(sig(reflect('native'))).toEqual(sig(reflect('packed')));
    expect(sig(reflect('native'))).toHaveLength(2);
  });

  it('the launchers bind buffers in the shaders’ binding order (one buffer per storage binding)', async () => {
    const gpu = await sharedNodeGpu();
    const [M, N, K] = [2, 8, 12];
    const buf = (label: string, floats: number) => gpu.buffer(label, floats * 4);
    const x = buf('x', M * K);
    const bias = buf('bias', N);
    const y = buf('y', M * N);
    const src = buf('src', N * K);
    const w = allocF16Matrix(gpu, N, K, 'w');
    const dst = allocF16Matrix(gpu, N, K, 'dst');
    const calls = await boundLabels(async () => {
      linearF16(gpu, { x, w, y, M, bias, variant: 'packed' });
      convertToF16(gpu, dst, src);
      await gpu.readF32(y, 1);
    });
    const names = (r: WgslReflect) => storage(r).map((s) => s.name);
    for (const v of ['native', 'packed'] as const) expect(calls[0]).toEqual(names(reflect(v)));
    expect(calls[1]).toEqual(names(new WgslReflect(convertSource)));
    [x, bias, y, src, w.buffer, dst.buffer].forEach((b) => b.destroy());
  });
});
