// Checks a launcher's uniform list against its shader's uniform struct, so a reordered or retyped field fails a test
// instead of silently feeding the kernel garbage (the launcher packs fields by position, the shader reads by name).
import type { ScalarType } from './launcher';

export interface UniformField {
  name: string;
  type: string;
}

/** Strips // and block comments so they cannot hide or fake declarations. */
function stripComments(wgsl: string): string {
  return wgsl.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
}

/** Fields of `struct NAME { ... }` in declaration order; undefined when the struct is absent. */
export function parseStruct(wgsl: string, name: string): UniformField[] | undefined {
  const match = new RegExp(`struct\\s+${name}\\s*\\{([^}]*)\\}`).exec(stripComments(wgsl));
  if (!match) return undefined;
  return match[1]
    .split(/[,;\n]/)
    .map((part) => part.replace(/@\w+(\([^)]*\))?/g, '').trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const [fieldName, type] = part.split(':').map((s) => s.trim());
      return { name: fieldName, type: type ?? '' };
    });
}

interface UniformVar {
  group: number;
  binding: number;
  name: string;
  type: string;
}

/** Every `@group(g) @binding(b) var<uniform> name: Type;` in the shader. */
export function uniformVars(wgsl: string): UniformVar[] {
  const re = /@group\((\d+)\)\s*@binding\((\d+)\)\s*var<uniform>\s*(\w+)\s*:\s*(\w+)/g;
  return [...stripComments(wgsl).matchAll(re)].map((m) => ({ group: +m[1], binding: +m[2], name: m[3], type: m[4] }));
}

/** Body of `fn entryPoint(...) { ... }`, matched by brace depth. */
function functionBody(wgsl: string, entryPoint: string): string | undefined {
  const start = new RegExp(`fn\\s+${entryPoint}\\s*\\(`).exec(wgsl);
  if (!start) return undefined;
  const open = wgsl.indexOf('{', start.index);
  let depth = 0;
  for (let i = open; i < wgsl.length; i++) {
    if (wgsl[i] === '{') depth++;
    else if (wgsl[i] === '}' && --depth === 0) return wgsl.slice(open, i + 1);
  }
  return undefined;
}

/**
 * Problems (empty when consistent) between a launcher's uniform list and the shader's binding-0 uniform struct as seen
 * by `entryPoint`. Where a file declares several binding-0 uniforms (one per entry point), the one the entry point's
 * body reads is meant.
 */
export function checkUniformLayout(
  wgsl: string,
  entryPoint: string,
  uniforms: ReadonlyArray<readonly [string, ScalarType]>,
): string[] {
  const code = stripComments(wgsl);
  const problems: string[] = [];
  const vars = uniformVars(code);
  for (const v of vars) {
    if (v.group !== 0 || v.binding !== 0)
      problems.push(
        `uniform '${v.name}' is at @group(${v.group}) @binding(${v.binding}); the launcher binds uniforms at group 0 binding 0`,
      );
  }
  const storageAt0 = /@group\(0\)\s*@binding\(0\)\s*var<storage/.test(code);
  if (storageAt0) problems.push('binding 0 is a storage buffer; the launcher reserves it for the uniform struct');
  const body = functionBody(code, entryPoint);
  if (body === undefined) return [...problems, `entry point '${entryPoint}' not found`];
  const candidates = vars.length > 1 ? vars.filter((v) => new RegExp(`\\b${v.name}\\.`).test(body)) : vars;
  if (uniforms.length === 0) {
    if (candidates.length > 0)
      problems.push(`the shader declares uniform '${candidates[0].name}' but the launcher has no uniform fields`);
    return problems;
  }
  if (candidates.length !== 1)
    return [...problems, `expected one uniform struct for '${entryPoint}', found ${candidates.length}`];
  const struct = parseStruct(code, candidates[0].type);
  if (!struct) return [...problems, `struct ${candidates[0].type} not found`];
  if (struct.length !== uniforms.length) {
    problems.push(`struct ${candidates[0].type} has ${struct.length} fields, the launcher packs ${uniforms.length}`);
  }
  struct.forEach((field, i) => {
    const packed = uniforms[i];
    if (!packed) return;
    // A shader padding field (`_pad`, `pad0`) is never read, so the launcher may name that slot for a sibling shader.
    const nameOk = field.name === packed[0] || /^_|^pad\d*$/.test(field.name);
    if (field.type !== packed[1] || !nameOk) {
      problems.push(`field ${i}: shader '${field.name}: ${field.type}', launcher '${packed[0]}: ${packed[1]}'`);
    }
  });
  return problems;
}
