import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
// @ts-expect-error s3rver ships no types for its store module
import FilesystemStore from "s3rver/lib/stores/filesystem.js";

export interface TestS3 {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  bucket: string;
  /** The variables a server or the CLI needs to keep its table at `s3://<bucket>/<path>`. */
  env(path: string): Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver, in this process) on a free loopback port, storing in a temp
 * folder, with one empty bucket. s3rver accepts any credentials; they are set anyway, as in production.
 */
export async function startS3(bucket = "jobs"): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), "jobsearch-s3-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  const address = (await server.run()) as unknown as { port: number };
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    env: (path) => ({
      DATA_URI: `s3://${bucket}/${path}`,
      AWS_ENDPOINT_URL: endpoint,
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
    }),
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

// --- internal ---

/*
 * S3 lists keys in binary (lexical) order, and LanceDB relies on it to find a table's newest
 * version. s3rver lists them in the order its folders happen to be read, so, left alone, a reader
 * may open an old version. Its listing is put in S3's order here (all keys, sorted, then cut to
 * max-keys): a fix to the stand-in's fidelity, nothing of ours is replaced.
 */
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
