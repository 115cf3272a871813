/*
 * server/memory/dot.wat compiled (wabt 1.0.39, SIMD on): dot products of a query with many vectors,
 * four lanes at a time. tests/memory-path.test.ts compiles the source again and compares.
 */
export const DOT_WASM_BASE64 =
  "AGFzbQEAAAABEgJgBX9/f39/AGAGf39/f39/AAIPAQNlbnYGbWVtb3J5AgABAwMCAAEHEwIEc2NhbgAACHNjYW5Sb3dzAAEKxAICmwECA38BewJAA0AgBSADTw0BIAAgBSACQQJ0bGohB/0MAAAAAAAAAAAAAAAAAAAAACEIQQAhBgJAA0AgBiACTw0BIAggByAGQQJ0av0ABAAgASAGQQJ0av0ABAD95gH95AEhCCAGQQRqIQYMAAsLIAQgBUECdGogCP0fACAI/R8BkiAI/R8CIAj9HwOSkjgCACAFQQFqIQUMAAsLC6QBAgN/AXsCQANAIAYgBE8NASAAIAMgBkECdGooAgAgAkECdGxqIQj9DAAAAAAAAAAAAAAAAAAAAAAhCUEAIQcCQANAIAcgAk8NASAJIAggB0ECdGr9AAQAIAEgB0ECdGr9AAQA/eYB/eQBIQkgB0EEaiEHDAALCyAFIAZBAnRqIAn9HwAgCf0fAZIgCf0fAiAJ/R8DkpI4AgAgBkEBaiEGDAALCws=";

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
