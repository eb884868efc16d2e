// Kernel variants for devices with fewer storage buffers per stage: two f32 arrays of a kernel read from one binding.
//
// WebGPU's default (and Firefox on Metal, wgpu) is 8 storage buffers per shader stage; three training kernels bind 9
// (attention backward dq and dk/dv, the GRPO loss backward). On such a device their launchers pack two small arrays
// into one temporary buffer (a first, b after it) and dispatch a variant whose WGSL is rewritten here from the same
// source, so the math exists once and the 9-buffer kernels (sources untouched) keep their numbers and speed.

/** The most storage buffers per stage the lab's unpacked kernels bind. */
export const UNPACKED_STORAGE_BUFFERS = 9;

/** True when this device cannot bind the unpacked kernels' 9 storage buffers: launchers use the packed variants. */
export function packedStorage(device: GPUDevice): boolean {
  return device.limits.maxStorageBuffersPerShaderStage < UNPACKED_STORAGE_BUFFERS;
}

const decl = (name: string) =>
  new RegExp(`^@group\\(0\\) @binding\\((\\d+)\\) var<storage, (read|read_write)> ${name}: array<f32>;.*$`, 'm');

/**
 * WGSL `source` with its f32 storage arrays `a` and `b` replaced by one array `merged` at a's binding (read_write if
 * either was), holding a then b from element `bOffset` (a WGSL expression, e.g. a uniform product); the bindings after
 * b's move down by one, so a launcher passes the same buffers with a and b replaced by one. Every other use of a or b
 * (arrayLength, a pointer) is refused rather than rewritten wrongly.
 */
export function mergeStorage(source: string, a: string, b: string, merged: string, bOffset: string): string {
  const da = decl(a).exec(source);
  const db = decl(b).exec(source);
  if (!da || !db) throw new Error(`mergeStorage: no f32 storage arrays '${a}' and '${b}' to merge`);
  const ba = Number(da[1]);
  const bb = Number(db[1]);
  if (bb <= ba) throw new Error(`mergeStorage: '${a}' (binding ${ba}) must come before '${b}' (binding ${bb})`);
  const access = da[2] === 'read_write' || db[2] === 'read_write' ? 'read_write' : 'read';
  let out = source
    .replace(da[0], `@group(0) @binding(${ba}) var<storage, ${access}> ${merged}: array<f32>;`)
    .replace(db[0] + '\n', '')
    .replace(/@group\(0\) @binding\((\d+)\)/g, (m, n: string) =>
      Number(n) > bb ? `@group(0) @binding(${Number(n) - 1})` : m,
    )
    .replace(new RegExp(`\\b${a}\\[`, 'g'), `${merged}[`)
    .replace(new RegExp(`\\b${b}\\[`, 'g'), `${merged}[${bOffset} + `);
  const code = out.replace(/\/\/.*$/gm, '');
  for (const name of [a, b])
    if (new RegExp(`\\b${name}\\b`).test(code)) throw new Error(`mergeStorage: '${name}' is used other than indexed`);
  out = `// ${a} and ${b} merged into ${merged} (merge-storage.ts)\n${out}`;
  return out;
}
