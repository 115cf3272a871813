import { closeSync, openSync, readSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DataType, readInitializer } from "./onnx-writer.ts";

/** The graph's initializer holding one row per token id. */
export const TABLE = "embeddings";

/** A byte range of the model file. */
export interface TableLocation {
  offset: number;
  bytes: number;
}

/** A built static model's word table: a row of `dimension` float16 values (little-endian) per token id. */
export interface StaticTable {
  dimension: number;
  /** The table's bytes; a row holds its values once `rowAt` gave its offset. */
  bytes: Uint8Array;
  /** The offset in `bytes` of token `id`'s row, read from the model file first if need be. */
  rowAt(id: number): number;
  /** Every float16 bit pattern's float32 value (exact), as the graph's Cast computes it. */
  value: Float32Array;
}

/**
 * The word table of a built static model, read from its graph: summing a text's rows (`value` of each) in
 * token order gives the model's mean pooling bit for bit. Where the manifest says where the table lies,
 * its rows are read a block at a time as words need them: a server's queries touch a few hundred kB of
 * the 40 MB, and memory never written costs nothing (on a VM every page first written costs time too).
 * Otherwise (folders built before) the whole file is read. Read, not mapped: Bun.mmap opens the file for
 * writing, which a read-only models folder (the container's) refuses.
 */
export async function readStaticTable(dir: string, dimension: number, at?: TableLocation): Promise<StaticTable> {
  const path = join(dir, "onnx", "model.onnx");
  const bits = Uint16Array.from({ length: 65536 }, (_, i) => i);
  const value = Float32Array.from(new Float16Array(bits.buffer));
  const rowBytes = 2 * dimension;
  const badTable = () => new Error(`${path} has no float16 "${TABLE}" table of ${dimension} columns: rebuild it by deleting ${dir}`);
  if (at) {
    if (at.bytes % rowBytes !== 0) throw badTable();
    return { dimension, value, ...blockReader(path, at, rowBytes) };
  }
  const table = readInitializer(await readFile(path), TABLE);
  if (table?.dataType !== DataType.FLOAT16 || table.raw.length % rowBytes !== 0) throw badTable();
  return { dimension, value, bytes: table.raw, rowAt: (id) => id * rowBytes };
}

// --- internal ---

/** The table is read from the file in blocks of this many bytes, each once. */
const BLOCK_BYTES = 64 * 1024;

/**
 * Rows of the table at `at` in `path`, each block read on first use into one buffer of the table's size
 * (pages never written are never backed). The file stays open for the process; a rebuilt model replaces
 * the file by a rename, so this process keeps reading the table it began with.
 */
function blockReader(path: string, at: TableLocation, rowBytes: number): Pick<StaticTable, "bytes" | "rowAt"> {
  const fd = openSync(path, "r");
  const bytes = new Uint8Array(at.bytes);
  const read = new Uint8Array(Math.ceil(at.bytes / BLOCK_BYTES));
  let left = read.length;
  const readBlock = (block: number) => {
    const start = block * BLOCK_BYTES;
    const length = Math.min(BLOCK_BYTES, at.bytes - start);
    for (let done = 0; done < length; ) {
      const n = readSync(fd, bytes, start + done, length - done, at.offset + start + done);
      if (n === 0) throw new Error(`${path} ends inside its word table: rebuild it by deleting its folder`);
      done += n;
    }
    read[block] = 1;
    if (--left === 0) closeSync(fd);
  };
  return {
    bytes,
    rowAt(id) {
      const offset = id * rowBytes;
      const last = Math.floor((offset + rowBytes - 1) / BLOCK_BYTES);
      for (let block = Math.floor(offset / BLOCK_BYTES); block <= last; block++) if (!read[block]) readBlock(block);
      return offset;
    },
  };
}
