import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { S3Client } from "bun";
import { loadConfig } from "../../../server/config.ts";
import { loadEmbedder } from "../../../server/embedding/embedder.ts";
import { openStore } from "../../../server/store/store.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { MODELS_DIR, runCli, startTestServer, tempDir, until, type TestServer } from "../../support/helpers.ts";
import { startS3, type TestS3 } from "../../support/s3.ts";

const search = (t: TestServer, q: string) =>
  fetch(`${t.url}/v1/search`, { method: "POST", headers: { "x-api-key": t.apiKey }, body: JSON.stringify({ q, top_k: 100, sort: "relevance" }) })
    .then(async (r) => ({ status: r.status, body: (await r.json()) as { total: number; results: Array<{ job_title: string; job_url: string }> } }));

describe("DATA_URI=s3://… (a real S3-compatible server)", () => {
  let s3: TestS3;
  let dataDir: string;
  let env: Record<string, string>;
  let t: TestServer;
  let objects: S3Client;
  const listKeys = async () => ((await objects.list({ prefix: "tables/jobsearch/" })).contents ?? []).map((o) => o.key);

  beforeAll(async () => {
    s3 = await startS3();
    dataDir = tempDir();
    env = { ...s3.env("tables/jobsearch"), DATA_DIR: dataDir };
    objects = new S3Client({ endpoint: s3.endpoint, bucket: s3.bucket, accessKeyId: "S3RVER", secretAccessKey: "S3RVER", region: "us-east-1" });
    const file = join(dataDir, "postings.json");
    await Bun.write(file, JSON.stringify(fixturePostings().slice(0, 30)));
    const ingested = await runCli(["ingest", file], env);
    expect(ingested.stderr).not.toContain("error");
    expect(ingested.stdout).toContain("ingested 30 new, 0 updated, 0 skipped");
    t = await startTestServer({ env });
  });
  afterAll(async () => {
    await t?.stop();
    await s3?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("the CLI ingest writes the table and its term statistics to the bucket, nothing of it to DATA_DIR", async () => {
    const keys = await listKeys();
    expect(keys).toContain("tables/jobsearch/term-stats.json");
    expect(keys.some((key) => key.startsWith("tables/jobsearch/jobs.lance/_versions/"))).toBe(true);
    expect(keys.some((key) => key.startsWith("tables/jobsearch/jobs.lance/_indices/"))).toBe(true);
    expect(existsSync(join(dataDir, "jobs.lance"))).toBe(false);
    expect(readdirSync(dataDir).filter((name) => name.includes("term-stats"))).toEqual([]);
    const stats = JSON.parse(await objects.file("tables/jobsearch/term-stats.json").text()) as { docs: number };
    expect(stats.docs).toBe(30);
  });

  test("a server on the same DATA_URI searches the table with the stored term statistics", async () => {
    expect(t.server.store.termStats()?.docs).toBe(30);
    const { status, body } = await search(t, "registered nurse night shift");
    expect(status).toBe(200);
    expect(body.total).toBeGreaterThan(0);
    expect(body.results[0]!.job_title).toBe("Registered Nurse");
  });

  test("stats reads the table in the bucket: postings, indexes, path and size", async () => {
    const { stdout, code } = await runCli(["stats", "--json"], env);
    expect(code).toBe(0);
    const stats = JSON.parse(stdout) as { postings: number; indexes: unknown[]; table: { path: string; disk_bytes: number } };
    expect(stats.postings).toBe(30);
    expect(stats.indexes.length).toBeGreaterThanOrEqual(8);
    expect(stats.table.path).toBe(`s3://${s3.bucket}/tables/jobsearch/jobs.lance`);
    expect(stats.table.disk_bytes).toBeGreaterThan(10_000);
  });

  test("a second ingest through the CLI reaches the running server, term statistics included", async () => {
    const file = join(dataDir, "more.json");
    await Bun.write(file, JSON.stringify(fixturePostings().slice(30)));
    expect((await runCli(["ingest", file], env)).stdout).toContain("ingested 12 new");
    const total = await until(() => t.server.store.count(), (count) => count === 42 && t.server.store.termStats()?.docs === 42, 100);
    expect(total).toBe(42);
    expect(t.server.store.termStats()?.docs).toBe(42);
    const urls = new Set((await search(t, "accountant")).body.results.map((r) => r.job_url));
    for (const posting of fixturePostings().slice(30).filter((p) => p.job_title === "Accountant")) expect(urls.has(posting.job_url)).toBe(true);
  });

  test("the ANN index builds in the object store (background index maintenance's step)", async () => {
    const config = loadConfig({ ...env, MODELS_DIR });
    const embedder = await loadEmbedder(config.embedding);
    const store = await openStore({ dataDir: config.table.uri, storageOptions: config.table.storageOptions!, modelId: embedder.modelId, dimension: embedder.dimension });
    try {
      expect(await store.ensureVectorIndex(10)).toBe(true);
      expect(await store.vectorIndexState()).toMatchObject({ indexedRows: 42, unindexedRows: 0 });
      await store.rebuildVectorIndex();
      expect((await listKeys()).filter((key) => key.includes("/_indices/")).length).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });
});

test("DATA_URI accepts only s3:// object stores and reads the AWS variables for them", () => {
  expect(() => loadConfig({ DATA_URI: "gs://bucket/x" })).toThrow(/only s3:\/\//);
  const config = loadConfig({ DATA_URI: "s3://b/p/", AWS_ENDPOINT_URL: "http://127.0.0.1:9000", AWS_DEFAULT_REGION: "eu-west-1", AWS_ACCESS_KEY_ID: "id", AWS_SECRET_ACCESS_KEY: "secret" });
  expect(config.table).toEqual({
    uri: "s3://b/p",
    storageOptions: { endpoint: "http://127.0.0.1:9000", region: "eu-west-1", aws_access_key_id: "id", aws_secret_access_key: "secret", allow_http: "true" },
  });
  expect(loadConfig({ DATA_DIR: "/tmp/x" }).table).toEqual({ uri: "/tmp/x" });
});
