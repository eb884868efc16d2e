// A small ONNX graph builder: nodes, initializers and typed inputs/outputs as plain objects, encoded by protobufjs.
import { AT, DT, modelProtoType, type DataType } from './schema';

export type AttrValue = number | number[] | string | { float: number } | { floats: number[] };

/** A dimension: a fixed size or a symbolic name (batch, sequence, ...). */
export type Dim = number | string;

interface AttributeObj {
  name: string;
  type: number;
  i?: number;
  f?: number;
  s?: Uint8Array;
  ints?: number[];
  floats?: number[];
}

interface TensorObj {
  name: string;
  dims: number[];
  data_type: number;
  raw_data: Uint8Array;
}

interface ValueInfoObj {
  name: string;
  type: { tensor_type: { elem_type: number; shape: { dim: ({ dim_value: number } | { dim_param: string })[] } } };
}

interface NodeObj {
  input: string[];
  output: string[];
  name: string;
  op_type: string;
  attribute: AttributeObj[];
}

const utf8 = new TextEncoder();

/** Integer-valued numbers become INT / INTS attributes; use { float } / { floats } to force floats. */
function attribute(name: string, v: AttrValue): AttributeObj {
  if (typeof v === 'string') return { name, type: AT.STRING, s: utf8.encode(v) };
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) throw new Error(`onnx attribute ${name}: ${v} is not an integer; pass { float: ${v} }`);
    return { name, type: AT.INT, i: v };
  }
  if (Array.isArray(v)) return { name, type: AT.INTS, ints: v };
  if ('float' in v) return { name, type: AT.FLOAT, f: v.float };
  return { name, type: AT.FLOATS, floats: v.floats };
}

function bytesOf(data: ArrayBufferView): Uint8Array {
  // Little-endian raw_data, which is what every JS engine's typed arrays already are on the hosts we run on.
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

function valueInfo(name: string, elemType: DataType, dims: Dim[]): ValueInfoObj {
  return {
    name,
    type: {
      tensor_type: {
        elem_type: elemType,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dim_value: d } : { dim_param: d })) },
      },
    },
  };
}

export class GraphBuilder {
  private readonly nodes: NodeObj[] = [];
  private readonly inits: TensorObj[] = [];
  private readonly inputs: ValueInfoObj[] = [];
  private readonly outputs: ValueInfoObj[] = [];
  private readonly names = new Set<string>();
  private counter = 0;
  /** Small constants are shared: same name prefix and values → one initializer. */
  private readonly consts = new Map<string, string>();

  /** A fresh value name with a readable prefix. */
  fresh(prefix: string): string {
    let n = `${prefix}`;
    while (this.names.has(n)) n = `${prefix}_${++this.counter}`;
    this.names.add(n);
    return n;
  }

  input(name: string, elemType: DataType, dims: Dim[]): string {
    this.names.add(name);
    this.inputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  output(name: string, elemType: DataType, dims: Dim[]): void {
    this.outputs.push(valueInfo(name, elemType, dims));
  }

  /** An initializer (weights and constants); raw little-endian bytes. */
  init(
    name: string,
    elemType: DataType,
    dims: number[],
    data: Float32Array | Int8Array | Uint8Array | BigInt64Array | Int32Array,
  ): string {
    const n = this.fresh(name);
    const count = dims.reduce((a, b) => a * b, 1);
    if (data.length !== count)
      throw new Error(`onnx initializer ${name}: ${data.length} values for dims [${dims.join(', ')}]`);
    this.inits.push({ name: n, dims, data_type: elemType, raw_data: bytesOf(data) });
    return n;
  }

  /** int64 constant (shapes, axes, indices); `scalar` gives a 0-d tensor. */
  i64(name: string, values: number[], scalar = false): string {
    if (scalar && values.length !== 1) throw new Error('onnx i64 scalar needs one value');
    return this.shared(`i64|${name}|${scalar}|${values.join(',')}`, () =>
      this.init(name, DT.INT64, scalar ? [] : [values.length], BigInt64Array.from(values.map((v) => BigInt(v)))),
    );
  }

  f32(name: string, values: number[], scalar = false): string {
    return this.shared(`f32|${name}|${scalar}|${values.join(',')}`, () =>
      this.init(name, DT.FLOAT, scalar ? [] : [values.length], Float32Array.from(values)),
    );
  }

  private shared(key: string, make: () => string): string {
    let n = this.consts.get(key);
    if (n === undefined) {
      n = make();
      this.consts.set(key, n);
    }
    return n;
  }

  /** Adds a node; returns its output names (fresh names derived from `out` unless given in full). */
  node(
    op: string,
    inputs: string[],
    attrs: Record<string, AttrValue> = {},
    out: string | string[] = op.toLowerCase(),
  ): string[] {
    const outputs = Array.isArray(out) ? out.map((o) => this.fresh(o)) : [this.fresh(out)];
    const attribute = Object.entries(attrs).map(([k, v]) => attributeOf(k, v));
    this.nodes.push({ input: inputs, output: outputs, name: `${op}_${this.nodes.length}`, op_type: op, attribute });
    return outputs;
  }

  /** One-output node. */
  op(op: string, inputs: string[], attrs: Record<string, AttrValue> = {}, out?: string): string {
    return this.node(op, inputs, attrs, out ?? op.toLowerCase())[0];
  }

  get nodeCount(): number {
    return this.nodes.length;
  }

  /** Serialises a ModelProto (IR version 8 = opset 17's) with the default domain at `opset`. */
  encode(meta: {
    name: string;
    opset: number;
    irVersion: number;
    doc?: string;
    props?: Record<string, string>;
  }): Uint8Array {
    const Model = modelProtoType();
    const obj = {
      ir_version: meta.irVersion,
      opset_import: [{ domain: '', version: meta.opset }],
      producer_name: 'code-a1-lab',
      producer_version: '0.1.0',
      doc_string: meta.doc ?? '',
      graph: { name: meta.name, node: this.nodes, initializer: this.inits, input: this.inputs, output: this.outputs },
      metadata_props: Object.entries(meta.props ?? {}).map(([key, value]) => ({ key, value })),
    };
    const err = Model.verify(obj);
    if (err) throw new Error(`onnx export: invalid ModelProto (${err})`);
    return Model.encode(Model.fromObject(obj)).finish();
  }
}

const attributeOf = attribute;
