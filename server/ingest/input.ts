/*
 * The bytes of an input file as a bounded stream. A load reads any file in pieces, so its memory
 * does not grow with the file; these bounds stop a file that is not what it claims to be (a gzip
 * bomb: 1 MB expanding to gigabytes of zeros or newlines) with a clear error instead of a crash.
 */

/** Longest line (JSON lines), array element (JSON) or CSV row: real postings are under 30 KB. */
export const RECORD_MAX_BYTES = 1024 * 1024;
/** Most bytes a load reads from one file, after decompression. */
export const INPUT_MAX_BYTES = 4 * 1024 ** 3;
/** Most a `.gz` file may expand (bytes out per byte in): text of postings expands 3–6×. */
export const GZIP_MAX_RATIO = 100;
/** Below this many bytes out, the ratio is not checked (a tiny file of repeated text may expand more). */
const RATIO_FLOOR_BYTES = 64 * 1024 * 1024;

export interface InputProgress {
  /** Bytes of the file (as stored, compressed or not) read so far. */
  read: number;
  total: number;
}

/**
 * The bytes of `path`, gunzipped when it ends in `.gz`, in chunks; throws while iterating once
 * they pass INPUT_MAX_BYTES or a `.gz` file expands more than GZIP_MAX_RATIO times.
 */
export function inputBytes(path: string): { chunks: AsyncIterable<Uint8Array>; progress: InputProgress } {
  const file = Bun.file(path);
  const progress: InputProgress = { read: 0, total: file.size };
  const gzipped = path.toLowerCase().endsWith(".gz");
  const counted = file.stream().pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        progress.read += chunk.length;
        controller.enqueue(chunk);
      },
    }),
  );
  const stream = gzipped ? counted.pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>) : counted;
  return { chunks: bounded(stream, path, gzipped ? file.size : undefined), progress };
}

/** The same stream, failing past the bounds (see inputBytes); `compressedSize` when it is gunzipped. */
export async function* bounded(chunks: AsyncIterable<Uint8Array>, path: string, compressedSize?: number): AsyncGenerator<Uint8Array> {
  let out = 0;
  for await (const chunk of chunks) {
    out += chunk.length;
    if (out > INPUT_MAX_BYTES) throw new Error(`${path}: stopped after ${INPUT_MAX_BYTES / 1024 ** 3} GiB of input (the most one load reads; split the file)`);
    if (compressedSize !== undefined && out > RATIO_FLOOR_BYTES && out > GZIP_MAX_RATIO * compressedSize) {
      throw new Error(`${path}: stopped, it expands more than ${GZIP_MAX_RATIO}× when gunzipped (${compressedSize} bytes to over ${out}): not a file of postings`);
    }
    yield chunk;
  }
}

/**
 * The lines of a byte stream, numbered from 1 and decoded as UTF-8 (a final line without a newline
 * included). A line longer than RECORD_MAX_BYTES comes out with `text` undefined, and its bytes are
 * dropped as they arrive rather than kept.
 */
export async function* lines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<{ number: number; text: string | undefined }> {
  const decoder = new TextDecoder();
  let parts: Uint8Array[] = [];
  let size = 0;
  let overlong = false;
  let number = 0;
  const take = (last: Uint8Array) => {
    const text = overlong ? undefined : decoder.decode(parts.length === 0 ? last : Buffer.concat([...parts, last]));
    parts = [];
    size = 0;
    overlong = false;
    return { number: ++number, text };
  };
  for await (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, end);
      start = end + 1;
      if (piece.length === 0 && size === 0 && !overlong) {
        number++; // a blank line: nothing to decode (a file of newlines stays quick)
        continue;
      }
      if (!overlong && size + piece.length > RECORD_MAX_BYTES) overlong = true;
      yield take(piece);
    }
    const rest = chunk.subarray(start);
    if (overlong || size + rest.length > RECORD_MAX_BYTES) {
      overlong = true;
      parts = [];
      size = 0;
    } else if (rest.length > 0) {
      parts.push(rest.slice());
      size += rest.length;
    }
  }
  if (size > 0 || overlong) yield take(new Uint8Array(0));
}

// --- internal ---

const NEWLINE = 0x0a;
