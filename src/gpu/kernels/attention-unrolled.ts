// Generated WGSL for the attention forward (backward passes and shared pieces: attention-unrolled-bwd.ts) with the head
// size and rows per invocation baked in: every per-row and per-lane value is its own named variable instead of an
// element of a run-time-indexed private array. SwiftShader cannot tell that such an index is the same in every lane,
// so each array access became a per-lane gather/scatter through memory; named variables stay in registers (or spill
// as whole vectors). Same bindings, uniforms, masking
// and results as shaders/attention.wgsl, which stays the kernel for other adapters.
import { Kernel, type ScalarType } from '../launcher';
import {
  attentionBackwardKvSource,
  attentionBackwardQSource,
  KEY_BLOCK_HEAD,
  KEYS_OK,
  keyLanes,
  QKV_HEADER,
  queryRowsPrologue,
  rowOk,
  scoreLane,
} from './attention-unrolled-bwd';

const HEADER = [
  ...QKV_HEADER,
  '@group(0) @binding(5) var<storage, read_write> out: array<vec4<f32>>;',
  '@group(0) @binding(6) var<storage, read_write> lse: array<f32>;',
];

/** WGSL source of the forward for Dh = 4·dh4 and rb rows per invocation (the launcher's `rows` uniform must be rb). */
export function attentionForwardSource(dh4: number, rb: number): string {
  const R = Array.from({ length: rb }, (_, r) => r);
  const D = Array.from({ length: dh4 }, (_, d) => d);
  const L: string[] = [];
  const add = (s: string) => L.push(s);
  L.push(
    ...HEADER,
    ...queryRowsPrologue(dh4, rb, [
      'for (var d = 0u; d < DH4; d++) { out[(r * u.Hq + h) * DH4 + d] = vec4<f32>(0.0); }',
      'lse[r * u.Hq + h] = NEG_BIG;',
    ]),
  );
  for (const r of R) {
    add(`  let qb${r} = (min(row0 + ${r}u, rowLast) * u.Hq + h) * DH4;`);
    for (const d of D) add(`  let q${r}_${d} = q[qb${r} + ${d}u] * u.scale;`);
    for (const d of D) add(`  var a${r}_${d} = vec4<f32>(0.0);`);
    add(`  var m${r} = NEG_BIG;`);
    add(`  var l${r} = 0.0;`);
  }
  L.push(...KEY_BLOCK_HEAD);
  for (const r of R) add(`    var s${r} = vec4<f32>(0.0);`);
  for (const d of D) {
    add(keyLanes(d));
    for (const r of R) add(scoreLane(r, d));
    add('    }');
  }
  add(KEYS_OK);
  for (const r of R) {
    add(rowOk(r));
    add(`    let t${r} = select(vec4<f32>(NEG_BIG), s${r}, ok${r});`);
    add(`    let n${r} = max(m${r}, max(max(t${r}.x, t${r}.y), max(t${r}.z, t${r}.w)));`);
    add(`    let p${r} = select(vec4<f32>(0.0), exp(t${r} - n${r}), ok${r});`);
    add(`    let c${r} = exp(m${r} - n${r});`);
    add(`    l${r} = l${r} * c${r} + p${r}.x + p${r}.y + p${r}.z + p${r}.w;`);
    add(`    m${r} = n${r};`);
  }
  for (const d of D) {
    add(`    { let v0 = v[kb0 + ${d}u]; let v1 = v[kb1 + ${d}u]; let v2 = v[kb2 + ${d}u]; let v3 = v[kb3 + ${d}u];`);
    for (const r of R)
      add(`      a${r}_${d} = a${r}_${d} * c${r} + p${r}.x * v0 + p${r}.y * v1 + p${r}.z * v2 + p${r}.w * v3;`);
    add('    }');
  }
  add('  }');
  for (const r of R) {
    add(`  if (row0 + ${r}u <= rowLast) {`);
    add(`    let row = row0 + ${r}u;`);
    add('    let oBase = (row * u.Hq + h) * DH4;');
    add(`    let has = l${r} > 0.0 && !(maskQ && keyMask[row] == 0u);`);
    add(`    let inv = select(0.0, 1.0 / l${r}, has);`);
    for (const d of D) add(`    out[oBase + ${d}u] = a${r}_${d} * inv;`);
    add(`    lse[row * u.Hq + h] = select(NEG_BIG, m${r} + log(l${r}), has);`);
    add('  }');
  }
  add('}');
  return L.join('\n') + '\n';
}

type UName = 'B' | 'S' | 'Hq' | 'Hkv' | 'Dh' | 'hasMask' | 'scale' | 'rows';
export type AttentionPass = 'forward' | 'backwardQ' | 'backwardKv';
const GENERATORS: Record<AttentionPass, (dh4: number, rb: number) => string> = {
  forward: attentionForwardSource,
  backwardQ: attentionBackwardQSource,
  backwardKv: attentionBackwardKvSource,
};
const kernels = new Map<string, Kernel<UName>>();

/**
 * The generated kernel of one pass for this head size and tiling (built once per triple and variant). `variant`
 * rewrites the source (attention.ts's packLseDsum for devices with 8 storage buffers per stage); null = as generated.
 */
export function unrolledKernel(
  pass: AttentionPass,
  uniforms: ReadonlyArray<readonly [UName, ScalarType]>,
  dh4: number,
  rb: number,
  variant: ((source: string) => string) | null = null,
): Kernel<UName> {
  const key = `${pass}:${dh4}x${rb}${variant ? ':packed' : ''}`;
  let k = kernels.get(key);
  if (!k) {
    const source = GENERATORS[pass](dh4, rb);
    k = new Kernel({ family: 'attention', source: variant ? variant(source) : source, uniforms });
    kernels.set(key, k);
  }
  return k;
}
