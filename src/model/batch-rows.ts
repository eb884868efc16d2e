// How a decode batch's rows are laid out: left-padded prompts, and runs of adjacent rows copied in one go.
/** Left-pads prompts to a common length P: ids, RoPE positions and key validity, all [B, P] row-major. */
export function leftPad(
  prompts: number[][],
  padId: number,
): { P: number; tokens: Uint32Array; positions: Uint32Array; valid: Float32Array; pads: number[] } {
  const B = prompts.length;
  const P = Math.max(1, ...prompts.map((p) => p.length));
  const tokens = new Uint32Array(B * P).fill(padId);
  const positions = new Uint32Array(B * P);
  const valid = new Float32Array(B * P);
  const pads: number[] = [];
  prompts.forEach((p, b) => {
    if (p.length === 0) throw new Error(`decode: prompt ${b} is empty`);
    const pad = P - p.length;
    pads.push(pad);
    for (let s = pad; s < P; s++) {
      tokens[b * P + s] = p[s - pad];
      positions[b * P + s] = s - pad;
      valid[b * P + s] = 1;
    }
  });
  return { P, tokens, positions, valid, pads };
}

/** Calls fn(src, dst, n) for each run of consecutive source indices in `from`: rows src.. go to rows dst... */
export function forEachRun(from: readonly number[], fn: (src: number, dst: number, n: number) => void): void {
  let i = 0;
  while (i < from.length) {
    let j = i + 1;
    while (j < from.length && from[j] === from[j - 1] + 1) j++;
    fn(from[i], i, j - i);
    i = j;
  }
}
