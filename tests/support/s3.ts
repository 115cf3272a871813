import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
// s3rver's listing in S3's order, which LanceDB relies on.
import "../../docs/ops/compose/s3rver-order.ts";

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
