// wgsl_reflect's "main" is a CommonJS build under "type": "module" (Node cannot load it); tests import its ES module
// build by path, which has the same API as the package's own types.
declare module 'wgsl_reflect/wgsl_reflect.module.js' {
  export * from 'wgsl_reflect';
}
