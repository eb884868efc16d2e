// Prelude of shaders/linear_f16.wgsl for devices created with 'shader-f16': W as real f16 vectors, and rounding to
// f16 by a conversion to the f16 type and back.
enable f16;
@group(0) @binding(2) var<storage, read> w: array<vec4<f16>>;

fn wLoad(i: u32) -> vec4<f32> { return vec4<f32>(w[i]); }

fn r16(v: vec4<f32>) -> vec4<f32> { return vec4<f32>(vec4<f16>(v)); }
