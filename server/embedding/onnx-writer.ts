import { createRequire } from "node:module";
import type { onnx } from "onnx-proto";

/** The small inference graphs the offline model is built from, and their `.onnx` encoding. */

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
 * Encodes a graph as a complete `.onnx` file (ir_version 8, default-domain opset `opset`) with the
 * ONNX schema's own protobuf code (onnx-proto). Output is a pure function of the input.
 */
export function encodeModel(graph: OnnxGraph, options: { opset?: number; producer?: string } = {}): Uint8Array {
  const onnx = onnxProto();
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: options.producer ?? "jobsearch",
    graph: {
      node: graph.nodes.map((node) => ({
        input: node.inputs,
        output: node.outputs,
        name: node.name ?? node.outputs[0] ?? node.opType,
        opType: node.opType,
        attribute: Object.entries(node.attributes ?? {}).map(([name, i]) => ({ name, i, type: onnx.AttributeProto.AttributeType.INT })),
      })),
      name: graph.name,
      initializer: graph.initializers.map((tensor) => ({ dims: tensor.dims, dataType: tensor.dataType, name: tensor.name, rawData: tensor.raw })),
      input: graph.inputs.map(valueInfo),
      output: graph.outputs.map(valueInfo),
    },
    // An empty domain means the default "ai.onnx" operator set.
    opsetImport: [{ version: options.opset ?? 13 }],
  });
  return onnx.ModelProto.encode(model).finish();
}

/** The bytes of the initializer `name` of an encoded model (`raw` as encodeModel took it, a view into `model`). */
export function readInitializer(model: Uint8Array, name: string): Pick<OnnxTensor, "dataType" | "raw"> | undefined {
  const found = onnxProto().ModelProto.decode(model).graph?.initializer?.find((tensor) => tensor.name === name);
  return found?.rawData ? { dataType: found.dataType as DataTypeId, raw: found.rawData } : undefined;
}

// --- internal ---

/**
 * onnx-proto (with protobufjs) as first needed: only a model build and a folder built before 2026-11-27
 * read or write the graph, and loading it cost every process ~40–100 ms of CPU.
 */
let loadedProto: typeof onnx | undefined;
function onnxProto(): typeof onnx {
  return (loadedProto ??= (createRequire(import.meta.url)("onnx-proto") as typeof import("onnx-proto")).onnx);
}

function valueInfo(value: OnnxValue): onnx.IValueInfoProto {
  const dim = value.shape.map((d) => (typeof d === "number" ? { dimValue: d } : { dimParam: d }));
  return { name: value.name, type: { tensorType: { elemType: value.dataType, shape: { dim } } } };
}
