/*
 * server/memory/dot.wat compiled (wabt 1.0.39, SIMD on): dot products of a query with many vectors,
 * four lanes and four rows at a time. tests/unit/memory/copy.test.ts compiles the source again and compares.
 */
export const DOT_WASM_BASE64 =
  "AGFzbQEAAAABMAZgAXsBfWADf39/AX1gB39/f39/f38AYAV/f39/fwBgBH9/f38Bf2AGf39/f39/AAIPAQNlbnYGbWVtb3J5AgABAwcGAAECAwQFBxMCBHNjYW4AAwhzY2FuUm93cwAFCrQEBhkAIAD9HwAgAP0fAZIgAP0fAiAA/R8DkpILQgIBfwF7AkADQCADIAJPDQEgBCAAIANBAnRq/QAEACABIANBAnRq/QAEAP3mAf3kASEEIANBBGohAwwACwsgBBAAC6YBAgJ/BXsCQANAIAcgBU8NASAHQQJ0IQggBCAIav0ABAAhCSAKIAAgCGr9AAQAIAn95gH95AEhCiALIAEgCGr9AAQAIAn95gH95AEhCyAMIAIgCGr9AAQAIAn95gH95AEhDCANIAMgCGr9AAQAIAn95gH95AEhDSAHQQRqIQcMAAsLIAYgChAAOAIAIAYgCxAAOAIEIAYgDBAAOAIIIAYgDRAAOAIMC4IBAQN/IAJBAnQhBgJAA0AgBUEEaiADSw0BIAAgBSAGbGohByAHIAcgBmogByAGQQF0aiAHIAZBA2xqIAEgAiAEIAVBAnRqEAIgBUEEaiEFDAALCwJAA0AgBSADTw0BIAQgBUECdGogACAFIAZsaiABIAIQATgCACAFQQFqIQUMAAsLCxMAIAAgAiADQQJ0aigCACABbGoLlAEBAn8gAkECdCEHAkADQCAGQQRqIARLDQEgACAHIAMgBhAEIAAgByADIAZBAWoQBCAAIAcgAyAGQQJqEAQgACAHIAMgBkEDahAEIAEgAiAFIAZBAnRqEAIgBkEEaiEGDAALCwJAA0AgBiAETw0BIAUgBkECdGogACAHIAMgBhAEIAEgAhABOAIAIAZBAWohBgwACwsL";

export interface DotKernel {
  /** out[r] = vec[r] · q for r in [0, count); pointers are byte offsets in the kernel's memory. */
  scan(vec: number, q: number, dim: number, count: number, out: number): void;
  /** out[i] = vec[rows[i]] · q for i in [0, n). */
  scanRows(vec: number, q: number, dim: number, rows: number, n: number, out: number): void;
}

const module = new WebAssembly.Module(Buffer.from(DOT_WASM_BASE64, "base64"));

/** A kernel over its own memory of `bytes` (never grown, so views of it stay valid). */
export function dotKernel(bytes: number): { kernel: DotKernel; memory: WebAssembly.Memory } {
  const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / 65_536)) });
  const instance = new WebAssembly.Instance(module, { env: { memory } });
  return { kernel: instance.exports as unknown as DotKernel, memory };
}
