/**
 * A minimal ONNX ModelProto encoder: just enough protobuf to write a small inference graph with
 * initializers, so building the offline model needs no protobuf or onnx dependency.
 * Field numbers follow onnx/onnx.proto (IR version 8).
 */

/** ONNX TensorProto.DataType values this writer supports. */
export const DataType = { FLOAT: 1, INT64: 7, FLOAT16: 10 } as const;
export type DataTypeId = (typeof DataType)[keyof typeof DataType];

/** A constant stored in the graph; `raw` holds little-endian element bytes. */
export interface OnnxTensor {
  name: string;
  dataType: DataTypeId;
  dims: number[];
  raw: Uint8Array;
}

export interface OnnxNode {
  opType: string;
  inputs: string[];
  outputs: string[];
  name?: string;
  /** Integer attributes only (e.g. Cast's `to`): all this project's graphs need. */
  attributes?: Record<string, number>;
}

/** A graph input or output: a tensor with fixed (number) or symbolic (string) dimensions. */
export interface OnnxValue {
  name: string;
  dataType: DataTypeId;
  shape: (number | string)[];
}

export interface OnnxGraph {
  name: string;
  nodes: OnnxNode[];
  initializers: OnnxTensor[];
  inputs: OnnxValue[];
  outputs: OnnxValue[];
}

/**
 * Encodes a graph as a complete `.onnx` file (ir_version 8, default-domain opset `opset`).
 * Output is a pure function of the input, so equal graphs give equal bytes.
 */
export function encodeModel(graph: OnnxGraph, options: { opset?: number; producer?: string } = {}): Uint8Array {
  return concat([
    int(1, 8),
    str(2, options.producer ?? "jobsearch"),
    message(7, encodeGraph(graph)),
    message(8, int(2, options.opset ?? 13)), // an empty domain means the default "ai.onnx" operator set
  ]);
}

// --- internal ---

const ATTRIBUTE_INT = 2;

function encodeGraph(graph: OnnxGraph): Uint8Array {
  return concat([
    ...graph.nodes.map((node) => message(1, encodeNode(node))),
    str(2, graph.name),
    ...graph.initializers.map((tensor) => message(5, encodeTensor(tensor))),
    ...graph.inputs.map((value) => message(11, encodeValue(value))),
    ...graph.outputs.map((value) => message(12, encodeValue(value))),
  ]);
}

function encodeNode(node: OnnxNode): Uint8Array {
  const attributes = Object.entries(node.attributes ?? {}).map(([name, value]) =>
    message(5, concat([str(1, name), int(3, value), int(20, ATTRIBUTE_INT)])),
  );
  return concat([
    ...node.inputs.map((input) => str(1, input)),
    ...node.outputs.map((output) => str(2, output)),
    str(3, node.name ?? node.outputs[0] ?? node.opType),
    str(4, node.opType),
    ...attributes,
  ]);
}

function encodeTensor(tensor: OnnxTensor): Uint8Array {
  return concat([
    ...tensor.dims.map((dim) => int(1, dim)),
    int(2, tensor.dataType),
    str(8, tensor.name),
    bytes(9, tensor.raw),
  ]);
}

function encodeValue(value: OnnxValue): Uint8Array {
  const dims = value.shape.map((dim) => message(1, typeof dim === "number" ? int(1, dim) : str(2, dim)));
  const tensorType = concat([int(1, value.dataType), message(2, concat(dims))]);
  return concat([str(1, value.name), message(2, message(1, tensorType))]);
}

/** Protobuf varint; negative int64 values take the 10-byte two's complement form. */
function varint(value: number): Uint8Array {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? byte | 0x80 : byte);
  } while (v > 0n);
  return Uint8Array.from(out);
}

function int(field: number, value: number): Uint8Array {
  return concat([varint(field << 3), varint(value)]);
}

function bytes(field: number, data: Uint8Array): Uint8Array {
  return concat([varint((field << 3) | 2), varint(data.length), data]);
}

const encoder = new TextEncoder();

function str(field: number, text: string): Uint8Array {
  return bytes(field, encoder.encode(text));
}

const message = bytes;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
