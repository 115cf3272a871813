/**
 * An S3-compatible store for compose.yaml's replicas profile: s3rver (npm) on 0.0.0.0:4568, keeping its
 * objects in /data, with the bucket `jobs`. For trying replicas on one machine; use S3 (or another store
 * with conditional writes) in production. Its listing is in S3's order (s3rver-order.ts).
 */
import S3rver from "s3rver";
import "./s3rver-order.ts";

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
