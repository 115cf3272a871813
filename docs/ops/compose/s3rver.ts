/**
 * An S3-compatible store for compose.yaml's replicas profile: s3rver (npm) on 0.0.0.0:4568, keeping its
 * objects in /data, with the bucket `jobs`. For trying replicas on one machine; use S3 (or another store
 * with conditional writes) in production. As in tests/support/s3.ts, its listing is put in S3's order
 * (binary order of keys), which LanceDB relies on to find a table's newest version.
 */
import S3rver from "s3rver";
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

const server = new S3rver({
  port: Number(process.env.S3_PORT ?? 4568),
  address: "0.0.0.0",
  directory: process.env.S3_DIRECTORY ?? "/data",
  silent: true,
  // Path-style requests only: the replicas reach it as http://s3:4568, a host name s3rver would otherwise take for a bucket.
  vhostBuckets: false,
  configureBuckets: [{ name: process.env.S3_BUCKET ?? "jobs", configs: [] }],
});
const address = (await server.run()) as unknown as { port: number };
console.log(`s3rver listening on port ${address.port}, bucket ${process.env.S3_BUCKET ?? "jobs"}`);
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void server.close().then(() => process.exit(0)));
