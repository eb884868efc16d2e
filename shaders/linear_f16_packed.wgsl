// Prelude of shaders/linear_f16.wgsl without the f16 extension: the same buffer read as u32 pairs (the bytes of a
// vec4<f16>: element 2i in the low half of word i), unpacked and rounded with the core pack/unpack builtins. It gives
// the native prelude's numbers on any adapter, which is how CI runs the f16 path on SwiftShader.
@group(0) @binding(2) var<storage, read> w: array<vec2<u32>>;

fn wLoad(i: u32) -> vec4<f32> {
  let p = w[i];
  return vec4<f32>(unpack2x16float(p.x), unpack2x16float(p.y));
}

fn r16(v: vec4<f32>) -> vec4<f32> {
  return vec4<f32>(unpack2x16float(pack2x16float(v.xy)), unpack2x16float(pack2x16float(v.zw)));
}
