// Structure of exported ModelProtos, decoded back with protobufjs: opset/IR, I/O names and shapes, a well-formed
// topologically ordered graph, and int8 weights stored as int8 (a quarter of fp32's bytes).
import { describe, expect, it } from 'vitest';
import { preset } from './config';
import { initParams } from './init';
import { buildLayout } from './layout';
import { exportOnnx, ONNX_IR_VERSION, ONNX_OPSET, onnxNames } from './onnx';
import { modelProtoType } from './onnx/schema';

interface Decoded {
  ir_version: number;
  opset_import: { domain: string; version: number }[];
  graph: {
    node: { input: string[]; output: string[]; op_type: string }[];
    initializer: { name: string; data_type: number; dims: number[]; raw_data: Uint8Array }[];
    input: { name: string; type: { tensor_type: { shape: { dim: { dim_value?: number; dim_param?: string }[] } } } }[];
    output: { name: string }[];
  };
}

function decode(bytes: Uint8Array): Decoded {
  const M = modelProtoType();
  return M.toObject(M.decode(bytes), { longs: Number, defaults: true }) as Decoded;
}

const layout = buildLayout(preset('micro'));
const params = initParams(layout, 5);

describe('ONNX ModelProto structure', () => {
  it('full form: opset 17, IR 8, input_ids → logits, every node input defined before use', () => {
    const m = decode(exportOnnx(params, layout));
    expect(m.ir_version).toBe(ONNX_IR_VERSION);
    expect(m.opset_import).toEqual([{ domain: '', version: ONNX_OPSET }]);
    expect(m.graph.input.map((i) => i.name)).toEqual([onnxNames.inputIds]);
    expect(m.graph.output.map((o) => o.name)).toEqual([onnxNames.logits]);
    const defined = new Set([...m.graph.input.map((i) => i.name), ...m.graph.initializer.map((t) => t.name)]);
    expect(defined.size).toBe(m.graph.input.length + m.graph.initializer.length);
    for (const n of m.graph.node) {
      for (const i of n.input) expect(defined.has(i), `${n.op_type} reads undefined ${i}`).toBe(true);
      for (const o of n.output) {
        expect(defined.has(o), `${o} defined twice`).toBe(false);
        defined.add(o);
      }
    }
    expect(defined.has(onnxNames.logits)).toBe(true);
    const ops = new Set(m.graph.node.map((n) => n.op_type));
    for (const op of [
      'Gather',
      'ReduceMean',
      'Sqrt',
      'Div',
      'Slice',
      'Concat',
      'Neg',
      'Expand',
      'Softmax',
      'Sigmoid',
      'MatMul',
      'Where',
      'Range',
    ]) {
      expect(ops.has(op), op).toBe(true);
    }
    // One embedding table serves the tied lm_head.
    expect(m.graph.initializer.filter((t) => t.name.includes('embed_tokens')).length).toBe(1);
  });

  it('KV form: past_key_values.{l}.key/value in, logits then present.{l}.key/value out', () => {
    const m = decode(exportOnnx(params, layout, { kvCache: true }));
    const L = layout.config.layers;
    expect(m.graph.input.map((i) => i.name)).toEqual([
      onnxNames.inputIds,
      ...Array.from({ length: L }, (_, l) => [onnxNames.pastKey(l), onnxNames.pastValue(l)]).flat(),
    ]);
    expect(m.graph.output.map((o) => o.name)).toEqual([
      onnxNames.logits,
      ...Array.from({ length: L }, (_, l) => [onnxNames.presentKey(l), onnxNames.presentValue(l)]).flat(),
    ]);
    const dims = m.graph.input[1].type.tensor_type.shape.dim;
    expect(dims.map((d) => d.dim_value || d.dim_param)).toEqual([
      'batch',
      layout.config.kvHeads,
      'past_sequence',
      layout.config.headDim,
    ]);
  });

  it('attentionMask: attention_mask [batch, total_sequence] and position_ids [batch, sequence] inputs', () => {
    const m = decode(exportOnnx(params, layout, { kvCache: true, attentionMask: true }));
    const ins = m.graph.input
      .slice(0, 3)
      .map((i) => [i.name, i.type.tensor_type.shape.dim.map((d) => d.dim_value || d.dim_param)]);
    expect(ins).toEqual([
      [onnxNames.inputIds, ['batch', 'sequence']],
      [onnxNames.attentionMask, ['batch', 'total_sequence']],
      [onnxNames.positionIds, ['batch', 'sequence']],
    ]);
  });

  it('int8-row: Linear weights are int8 initializers behind DequantizeLinear', () => {
    const f32 = decode(exportOnnx(params, layout));
    const q = decode(exportOnnx(params, layout, { quant: 'int8-row' }));
    const linear = layout.tensors.filter((t) => t.kind === 'linear');
    const int8 = q.graph.initializer.filter((t) => t.data_type === 3);
    expect(int8.length).toBe(linear.length * 2); // codes + zero points
    expect(q.graph.node.filter((n) => n.op_type === 'DequantizeLinear').length).toBe(linear.length);
    const bytes = (m: Decoded, names: string[]) =>
      m.graph.initializer
        .filter((t) => names.some((n) => t.name.startsWith(n)))
        .reduce((a, t) => a + t.raw_data.length, 0);
    const names = linear.map((t) => t.name);
    const ratio = bytes(q, names) / bytes(f32, names);
    expect(ratio).toBeGreaterThan(0.25);
    expect(ratio).toBeLessThan(0.3);
  });
});
