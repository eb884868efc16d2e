// Fragment, not a standalone shader: qmatmul.ts splices it over the <x4> region of qmatmul.wgsl when the device
// has subgroups. Each invocation loads one of four consecutive x values and quadBroadcast hands all four to the
// quad, so x costs one load per quad lane instead of four (on SwiftShader every storage load is a gather).
// Correct because every invocation of a qmatmul workgroup reads the same x rows (1-D workgroups, rows from gid.y).
var<private> lane: u32;

fn x4(rowBase: u32, k: u32, step: u32, last: u32) -> vec4<f32> {
  let v = x[rowBase + min(k + lane * step, last)];
  return vec4<f32>(quadBroadcast(v, 0u), quadBroadcast(v, 1u), quadBroadcast(v, 2u), quadBroadcast(v, 3u));
}
