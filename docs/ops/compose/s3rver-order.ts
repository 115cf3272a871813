/*
 * S3 lists keys in binary (lexical) order, and LanceDB relies on it to find a table's newest
 * version. s3rver lists them in the order its folders happen to be read, so, left alone, a reader
 * may open an old version. Importing this module puts s3rver's listing in S3's order (all keys,
 * sorted, then cut to max-keys): a fix to the stand-in's fidelity, for the compose file's store
 * (s3rver.ts) and the tests' (tests/support/s3.ts).
 */
// @ts-expect-error s3rver ships no types for its store module
import FilesystemStore from "s3rver/lib/stores/filesystem.js";

type Listed = { objects: Array<{ key: string }>; commonPrefixes: string[]; isTruncated: boolean };
const store = FilesystemStore.prototype as { listObjects(bucket: string, options: { maxKeys?: number }): Promise<Listed> };
const unordered = store.listObjects;
store.listObjects = async function (this: unknown, bucket, options) {
  const { maxKeys = Infinity, ...rest } = options;
  const all = await unordered.call(this, bucket, rest);
  all.objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (all.objects.length > maxKeys) {
    all.objects = all.objects.slice(0, maxKeys);
    all.isTruncated = true;
  }
  return all;
};
