// Generated WGSL for the two attention backward passes with the head size and rows per invocation baked in (named
// variables instead of run-time-indexed private arrays; see attention-unrolled.ts for why). Same bindings, uniforms,
// masking and results as shaders/attention_backward_q.wgsl and attention_backward_kv.wgsl.

const UNIFORM =
  'struct U { B: u32, S: u32, Hq: u32, Hkv: u32, Dh: u32, hasMask: u32, scale: f32, rows: u32 }\n@group(0) @binding(0) var<uniform> u: U;\n';

/** Uniforms and bindings 1-4 (q, k, v, keyMask), common to every attention pass. */
export const QKV_HEADER = [
  UNIFORM,
  '@group(0) @binding(1) var<storage, read> q: array<vec4<f32>>;',
  '@group(0) @binding(2) var<storage, read> k: array<vec4<f32>>;',
  '@group(0) @binding(3) var<storage, read> v: array<vec4<f32>>;',
  '@group(0) @binding(4) var<storage, read> keyMask: array<u32>;',
];

/**
 * The per-query-rows passes' opening (forward, backward q): invocation → (sequence, row chunk, head), the live rows,
 * and an early exit that runs `empty` for each row r of a chunk with no live row.
 */
export function queryRowsPrologue(dh4: number, rb: number, empty: string[]): string[] {
  return [
    'override WG: u32 = 16;',
    `const DH4: u32 = ${dh4}u;`,
    `const RB: u32 = ${rb}u;`,
    'const NEG_BIG: f32 = -3.0e38;',
    'fn keyOk(j: u32, last: u32) -> bool { return j <= last && (u.hasMask == 0u || keyMask[j] != 0u); }',
    '@compute @workgroup_size(WG)',
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    '  let idx = gid.x + gid.y * nwg.x * WG;',
    '  let chunks = (u.S + RB - 1u) / RB;',
    '  if (idx >= u.B * chunks * u.Hq) { return; }',
    '  let h = idx % u.Hq;',
    '  let chunk = (idx / u.Hq) % chunks;',
    '  let b = idx / (u.Hq * chunks);',
    '  let g = h / (u.Hq / u.Hkv);',
    '  let seqStart = b * u.S;',
    '  let row0 = seqStart + chunk * RB;',
    '  let rowLast = min(row0 + RB, seqStart + u.S) - 1u;',
    '  let maskQ = u.hasMask == 2u;',
    '  var live = rowLast;',
    '  var anyLive = true;',
    '  if (maskQ) {',
    '    anyLive = false;',
    '    for (var r = row0; r <= rowLast; r++) { if (keyMask[r] != 0u) { live = r; anyLive = true; } }',
    '  }',
    '  if (!anyLive) {',
    '    for (var r = row0; r <= rowLast; r++) {',
    ...empty.map((l) => `      ${l}`),
    '    }',
    '    return;',
    '  }',
  ];
}

/** The key loop's head in the per-query-rows passes: skip left pads, then blocks of 4 keys (kb0..kb3 offsets). */
export const KEY_BLOCK_HEAD = [
  '  var jStart = seqStart;',
  '  if (maskQ) { while (jStart < live && keyMask[jStart] == 0u) { jStart += 1u; } }',
  '  for (var j0 = jStart; j0 <= live; j0 += 4u) {',
  '    let kb0 = (j0 * u.Hkv + g) * DH4;',
  '    let kb1 = (min(j0 + 1u, rowLast) * u.Hkv + g) * DH4;',
  '    let kb2 = (min(j0 + 2u, rowLast) * u.Hkv + g) * DH4;',
  '    let kb3 = (min(j0 + 3u, rowLast) * u.Hkv + g) * DH4;',
];

/** Opens a head-lane block of the key loop: the 4 keys' vec4 lane `d` as k0..k3. */
export const keyLanes = (d: number): string =>
  `    { let k0 = k[kb0 + ${d}u]; let k1 = k[kb1 + ${d}u]; let k2 = k[kb2 + ${d}u]; let k3 = k[kb3 + ${d}u];`;

/** Query row `r`'s partial scores against the 4 keys from head lane `d`. */
export const scoreLane = (r: number, d: number): string =>
  `      s${r} += vec4<f32>(dot(q${r}_${d}, k0), dot(q${r}_${d}, k1), dot(q${r}_${d}, k2), dot(q${r}_${d}, k3));`;

/** Which of the 4 keys exist (within the row's live keys and not masked out), shared by every query row. */
export const KEYS_OK =
  '    let ok = vec4<bool>(keyOk(j0, rowLast), keyOk(j0 + 1u, rowLast), keyOk(j0 + 2u, rowLast), keyOk(j0 + 3u, rowLast));';

/** Row `r`'s causal mask over the 4 keys, on top of KEYS_OK. */
export const rowOk = (r: number): string =>
  `    let ok${r} = ok & vec4<bool>(j0 <= row0 + ${r}u, j0 + 1u <= row0 + ${r}u, j0 + 2u <= row0 + ${r}u, j0 + 3u <= row0 + ${r}u);`;

function seq(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** Pass 1 (per query rows and head): D = Σ dO·O and dq. */
export function attentionBackwardQSource(dh4: number, rb: number): string {
  const R = seq(rb);
  const D = seq(dh4);
  const L: string[] = [
    ...QKV_HEADER,
    '@group(0) @binding(5) var<storage, read> out: array<vec4<f32>>;',
    '@group(0) @binding(6) var<storage, read> dout: array<vec4<f32>>;',
    '@group(0) @binding(7) var<storage, read> lse: array<f32>;',
    '@group(0) @binding(8) var<storage, read_write> dsum: array<f32>;',
    '@group(0) @binding(9) var<storage, read_write> dq: array<vec4<f32>>;',
    ...queryRowsPrologue(dh4, rb, [
      'for (var d = 0u; d < DH4; d++) { dq[(r * u.Hq + h) * DH4 + d] = vec4<f32>(0.0); }',
      'dsum[r * u.Hq + h] = 0.0;',
    ]),
  ];
  const add = (s: string) => L.push(s);
  for (const r of R) {
    add(`  let qi${r} = min(row0 + ${r}u, rowLast) * u.Hq + h;`);
    for (const d of D) add(`  let q${r}_${d} = q[qi${r} * DH4 + ${d}u] * u.scale;`);
    for (const d of D) add(`  let o${r}_${d} = dout[qi${r} * DH4 + ${d}u];`);
    add(`  let D${r} = ${D.map((d) => `dot(o${r}_${d}, out[qi${r} * DH4 + ${d}u])`).join(' + ')};`);
    for (const d of D) add(`  var a${r}_${d} = vec4<f32>(0.0);`);
    add(`  let l${r} = lse[qi${r}];`);
    add(`  if (row0 + ${r}u <= rowLast) { dsum[qi${r}] = select(D${r}, 0.0, maskQ && keyMask[row0 + ${r}u] == 0u); }`);
  }
  L.push(...KEY_BLOCK_HEAD);
  for (const r of R) add(`    var s${r} = vec4<f32>(0.0);\n    var p${r} = vec4<f32>(0.0);`);
  for (const d of D) {
    add(keyLanes(d));
    add(`      let v0 = v[kb0 + ${d}u]; let v1 = v[kb1 + ${d}u]; let v2 = v[kb2 + ${d}u]; let v3 = v[kb3 + ${d}u];`);
    for (const r of R) {
      add(scoreLane(r, d));
      add(
        `      p${r} += vec4<f32>(dot(o${r}_${d}, v0), dot(o${r}_${d}, v1), dot(o${r}_${d}, v2), dot(o${r}_${d}, v3));`,
      );
    }
    add('    }');
  }
  add(KEYS_OK);
  for (const r of R) {
    add(rowOk(r));
    add(`    let w${r} = select(vec4<f32>(0.0), exp(s${r} - l${r}), ok${r}) * (p${r} - D${r});`);
  }
  for (const d of D) {
    add(keyLanes(d));
    for (const r of R) add(`      a${r}_${d} += w${r}.x * k0 + w${r}.y * k1 + w${r}.z * k2 + w${r}.w * k3;`);
    add('    }');
  }
  add('  }');
  for (const r of R) {
    add(`  if (row0 + ${r}u <= rowLast) {`);
    add(`    let base = ((row0 + ${r}u) * u.Hq + h) * DH4;`);
    add(`    let pad = maskQ && keyMask[row0 + ${r}u] == 0u;`);
    for (const d of D) add(`    dq[base + ${d}u] = select(a${r}_${d} * u.scale, vec4<f32>(0.0), pad);`);
    add('  }');
  }
  add('}');
  return L.join('\n') + '\n';
}

/** Pass 2 (per key rows and kv head): dk and dv summed over later queries and the group's query heads. */
export function attentionBackwardKvSource(dh4: number, rb: number): string {
  const R = seq(rb);
  const D = seq(dh4);
  const L: string[] = [
    ...QKV_HEADER,
    '@group(0) @binding(5) var<storage, read> dout: array<vec4<f32>>;',
    '@group(0) @binding(6) var<storage, read> lse: array<f32>;',
    '@group(0) @binding(7) var<storage, read> dsum: array<f32>;',
    '@group(0) @binding(8) var<storage, read_write> dk: array<vec4<f32>>;',
    '@group(0) @binding(9) var<storage, read_write> dv: array<vec4<f32>>;',
    'override WG: u32 = 16;',
    `const DH4: u32 = ${dh4}u;`,
    `const RB: u32 = ${rb}u;`,
    '@compute @workgroup_size(WG)',
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    '  let idx = gid.x + gid.y * nwg.x * WG;',
    '  let chunks = (u.S + RB - 1u) / RB;',
    '  if (idx >= u.B * chunks * u.Hkv) { return; }',
    '  let g = idx % u.Hkv;',
    '  let chunk = (idx / u.Hkv) % chunks;',
    '  let b = idx / (u.Hkv * chunks);',
    '  let group = u.Hq / u.Hkv;',
    '  let seqEnd = b * u.S + u.S;',
    '  let j0 = b * u.S + chunk * RB;',
    '  let jLast = min(j0 + RB, seqEnd) - 1u;',
  ];
  const add = (s: string) => L.push(s);
  for (const r of R) {
    add(`  let kj${r} = min(j0 + ${r}u, jLast);`);
    add(`  let kbase${r} = (kj${r} * u.Hkv + g) * DH4;`);
    for (const d of D) add(`  let k${r}_${d} = k[kbase${r} + ${d}u] * u.scale;`);
    for (const d of D) add(`  let v${r}_${d} = v[kbase${r} + ${d}u];`);
    for (const d of D) add(`  var dk${r}_${d} = vec4<f32>(0.0);\n  var dv${r}_${d} = vec4<f32>(0.0);`);
    add(`  let valid${r} = j0 + ${r}u <= jLast && (u.hasMask == 0u || keyMask[kj${r}] != 0u);`);
  }
  add('  let last = seqEnd - 1u;');
  add('  let maskQ = u.hasMask == 2u;');
  add('  var qEnd = seqEnd;');
  add('  if (maskQ) { while (qEnd > j0 && keyMask[qEnd - 1u] == 0u) { qEnd -= 1u; } }');
  add(`  if (!(${R.map((r) => `valid${r}`).join(' || ')})) { qEnd = j0; }`);
  add('  for (var hh = 0u; hh < group; hh++) {');
  add('    let h = g * group + hh;');
  add('    for (var i0 = j0; i0 < qEnd; i0 += 4u) {');
  add('      let q0i = i0 * u.Hq + h;');
  add('      let q1i = min(i0 + 1u, last) * u.Hq + h;');
  add('      let q2i = min(i0 + 2u, last) * u.Hq + h;');
  add('      let q3i = min(i0 + 3u, last) * u.Hq + h;');
  for (const r of R) add(`      var s${r} = vec4<f32>(0.0);\n      var p${r} = vec4<f32>(0.0);`);
  const loads = (d: number) =>
    `let qa = q[q0i * DH4 + ${d}u]; let qb = q[q1i * DH4 + ${d}u]; let qc = q[q2i * DH4 + ${d}u]; let qd = q[q3i * DH4 + ${d}u];\n` +
    `        let oa = dout[q0i * DH4 + ${d}u]; let ob = dout[q1i * DH4 + ${d}u]; let oc = dout[q2i * DH4 + ${d}u]; let od = dout[q3i * DH4 + ${d}u];`;
  for (const d of D) {
    add(`      { ${loads(d)}`);
    for (const r of R) {
      add(
        `        s${r} += vec4<f32>(dot(k${r}_${d}, qa), dot(k${r}_${d}, qb), dot(k${r}_${d}, qc), dot(k${r}_${d}, qd));`,
      );
      add(
        `        p${r} += vec4<f32>(dot(v${r}_${d}, oa), dot(v${r}_${d}, ob), dot(v${r}_${d}, oc), dot(v${r}_${d}, od));`,
      );
    }
    add('      }');
  }
  add('      let l4 = vec4<f32>(lse[q0i], lse[q1i], lse[q2i], lse[q3i]);');
  add('      let D4 = vec4<f32>(dsum[q0i], dsum[q1i], dsum[q2i], dsum[q3i]);');
  add('      var inSeq = vec4<bool>(true, i0 + 1u < seqEnd, i0 + 2u < seqEnd, i0 + 3u < seqEnd);');
  add('      if (maskQ) {');
  add(
    '        inSeq = inSeq & vec4<bool>(keyMask[i0] != 0u, keyMask[min(i0 + 1u, last)] != 0u, keyMask[min(i0 + 2u, last)] != 0u, keyMask[min(i0 + 3u, last)] != 0u);',
  );
  add('      }');
  for (const r of R) {
    add(
      `      let ok${r} = inSeq & vec4<bool>(i0 >= j0 + ${r}u, i0 + 1u >= j0 + ${r}u, i0 + 2u >= j0 + ${r}u, i0 + 3u >= j0 + ${r}u) & vec4<bool>(valid${r});`,
    );
    add(`      let pr${r} = select(vec4<f32>(0.0), exp(s${r} - l4), ok${r});`);
    add(`      let ds${r} = pr${r} * (p${r} - D4);`);
  }
  for (const d of D) {
    add(`      { ${loads(d)}`);
    for (const r of R) {
      add(`        dv${r}_${d} += pr${r}.x * oa + pr${r}.y * ob + pr${r}.z * oc + pr${r}.w * od;`);
      add(`        dk${r}_${d} += ds${r}.x * qa + ds${r}.y * qb + ds${r}.z * qc + ds${r}.w * qd;`);
    }
    add('      }');
  }
  add('    }');
  add('  }');
  for (const r of R) {
    add(`  if (j0 + ${r}u <= jLast) {`);
    add(`    let base = ((j0 + ${r}u) * u.Hkv + g) * DH4;`);
    for (const d of D) add(`    dk[base + ${d}u] = dk${r}_${d} * u.scale;\n    dv[base + ${d}u] = dv${r}_${d};`);
    add('  }');
  }
  add('}');
  return L.join('\n') + '\n';
}
