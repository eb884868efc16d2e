// The online softmax of the register-tiled attention forward kernels (attention.wgsl, attention_decode_thread.wgsl),
// prepended by their launchers: each of an invocation's rows keeps a running max m and sum l and takes the keys in
// blocks of four, with one rescale of its accumulator per block. NEG_BIG is the kernel's "no score" value.

// One row's step over a block of four keys with scores sc (entries where ok is false do not count): the new running
// max m and sum l, the factor c that rescales the row's accumulator, and the block's weights p.
struct SoftmaxStep { p: vec4<f32>, c: f32, m: f32, l: f32 }

fn softmaxStep(sc: vec4<f32>, ok: vec4<bool>, m: f32, l: f32) -> SoftmaxStep {
  let s = select(vec4<f32>(NEG_BIG), sc, ok);
  let mNew = max(m, max(max(s.x, s.y), max(s.z, s.w)));
  let p = select(vec4<f32>(0.0), exp(s - mNew), ok);
  let c = exp(m - mNew);
  return SoftmaxStep(p, c, mNew, l * c + p.x + p.y + p.z + p.w);
}

// The accumulator after a block: acc rescaled by c plus the block's value rows (the columns of vd) weighted by p.
fn rescaleAdd(acc: vec4<f32>, c: f32, p: vec4<f32>, vd: mat4x4<f32>) -> vec4<f32> {
  return acc * c + p.x * vd[0] + p.y * vd[1] + p.z * vd[2] + p.w * vd[3];
}
