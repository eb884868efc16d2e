// The subset of ONNX's onnx.proto (IR v8) that the exporter writes, parsed by protobufjs (no hand-written encoder).
import protobuf from 'protobufjs';

/**
 * Field numbers and types copied from https://github.com/onnx/onnx/blob/main/onnx/onnx.proto (stable since IR v3);
 * messages and fields the exporter never writes are left out, which protobuf's wire format allows.
 */
export const ONNX_PROTO = `
syntax = "proto3";
package onnx;

message AttributeProto {
  enum AttributeType {
    UNDEFINED = 0; FLOAT = 1; INT = 2; STRING = 3; TENSOR = 4; GRAPH = 5;
    FLOATS = 6; INTS = 7; STRINGS = 8; TENSORS = 9; GRAPHS = 10;
  }
  string name = 1;
  string doc_string = 13;
  AttributeType type = 20;
  float f = 2;
  int64 i = 3;
  bytes s = 4;
  TensorProto t = 5;
  repeated float floats = 7;
  repeated int64 ints = 8;
  repeated bytes strings = 9;
}

message ValueInfoProto {
  string name = 1;
  TypeProto type = 2;
  string doc_string = 3;
}

message NodeProto {
  repeated string input = 1;
  repeated string output = 2;
  string name = 3;
  string op_type = 4;
  string domain = 7;
  repeated AttributeProto attribute = 5;
  string doc_string = 6;
}

message StringStringEntryProto {
  string key = 1;
  string value = 2;
}

message ModelProto {
  int64 ir_version = 1;
  repeated OperatorSetIdProto opset_import = 8;
  string producer_name = 2;
  string producer_version = 3;
  string domain = 4;
  int64 model_version = 5;
  string doc_string = 6;
  GraphProto graph = 7;
  repeated StringStringEntryProto metadata_props = 14;
}

message GraphProto {
  repeated NodeProto node = 1;
  string name = 2;
  repeated TensorProto initializer = 5;
  string doc_string = 10;
  repeated ValueInfoProto input = 11;
  repeated ValueInfoProto output = 12;
  repeated ValueInfoProto value_info = 13;
}

message TensorProto {
  enum DataType {
    UNDEFINED = 0; FLOAT = 1; UINT8 = 2; INT8 = 3; UINT16 = 4; INT16 = 5; INT32 = 6; INT64 = 7;
    STRING = 8; BOOL = 9; FLOAT16 = 10; DOUBLE = 11; UINT32 = 12; UINT64 = 13;
  }
  repeated int64 dims = 1;
  int32 data_type = 2;
  repeated float float_data = 4 [packed = true];
  repeated int32 int32_data = 5 [packed = true];
  repeated int64 int64_data = 7 [packed = true];
  string name = 8;
  bytes raw_data = 9;
  string doc_string = 12;
}

message TensorShapeProto {
  message Dimension {
    oneof value {
      int64 dim_value = 1;
      string dim_param = 2;
    }
    string denotation = 3;
  }
  repeated Dimension dim = 1;
}

message TypeProto {
  message Tensor {
    int32 elem_type = 1;
    TensorShapeProto shape = 2;
  }
  oneof value {
    Tensor tensor_type = 1;
  }
  string denotation = 6;
}

message OperatorSetIdProto {
  string domain = 1;
  int64 version = 2;
}
`;

/** TensorProto.DataType codes used here. */
export const DT = { FLOAT: 1, UINT8: 2, INT8: 3, INT32: 6, INT64: 7, BOOL: 9 } as const;
export type DataType = (typeof DT)[keyof typeof DT];

/** AttributeProto.AttributeType codes used here. */
export const AT = { FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, FLOATS: 6, INTS: 7 } as const;

let root: protobuf.Root | undefined;

/** onnx.ModelProto, parsed once. */
export function modelProtoType(): protobuf.Type {
  root ??= protobuf.parse(ONNX_PROTO, { keepCase: true }).root;
  return root.lookupType('onnx.ModelProto');
}
