import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHash, randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { connectRedis, createRedisLease } from "../../../server/redis.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { runCli, spawnServer, tempDir, until } from "../../support/helpers.ts";
import { startRedis, type TestRedis } from "../../support/redis.ts";
import { startS3, type TestS3 } from "../../support/s3.ts";
import { parseForm, postForm } from "../../support/sign-in.ts";
import { createApiKey, loadDataDir } from "../../support/stores.ts";
import { parseKey } from "../../../server/auth/api-keys.ts";

/*
 * Two server processes as replicas behind a load balancer: each its own DATA_DIR (nothing local is
 * shared), one Redis (keys, OAuth state, signing key, rate limits) and one table in an S3 bucket.
 */

type Server = Awaited<ReturnType<typeof spawnServer>>;
const PUBLIC_URL = "http://jobs.example.test";
const REDIRECT = "http://127.0.0.1:8976/callback";

let redis: TestRedis;
let s3: TestS3;
let env: Record<string, string>;
const dirs: string[] = [];
let one: Server;
let two: Server;
let key: { id: string; key: string };

const cli = (args: string[]) => runCli(args, { ...env, DATA_DIR: dir() });
const search = (server: Server, apiKey: string, q = "nurse") =>
  fetch(`${server.ready.url}/v1/search`, { method: "POST", headers: { "x-api-key": apiKey }, body: JSON.stringify({ q, top_k: 100 }) });
const mcp = (server: Server, token: string) =>
  fetch(`${server.ready.url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_cities", arguments: {} } }),
  });
const token = (server: Server, params: Record<string, string>) =>
  fetch(`${server.ready.url}/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(params) })
    .then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, string> }));

function dir(): string {
  const created = tempDir();
  dirs.push(created);
  return created;
}

beforeAll(async () => {
  [redis, s3] = await Promise.all([startRedis(), startS3()]);
  env = { ...s3.env("replicas"), REDIS_URL: redis.url, DEMO_DATA: "false", PUBLIC_URL, RATE_LIMIT_PER_MINUTE: "1000", MAX_IN_FLIGHT_PER_KEY: "64" };
  // Loaded in this process, as `cli ingest` loads (the CLI's load is the second test's subject).
  await loadDataDir(dir(), fixturePostings().slice(0, 36), {}, env);
  const created = await cli(["keys", "create", "--name", "shared", "--json"]);
  key = JSON.parse(created.stdout) as { id: string; key: string };
  [one, two] = await Promise.all([spawnServer(dir(), env), spawnServer(dir(), env)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([one?.stop(), two?.stop()]);
  await Promise.all([redis?.stop(), s3?.stop()]);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test("a key created through the CLI works on both replicas; the table in S3 answers both", async () => {
  for (const server of [one, two]) {
    const response = await search(server, key.key);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { total: number }).total).toBeGreaterThan(0);
  }
  const listed = JSON.parse((await cli(["keys", "list", "--json"])).stdout) as Array<{ id: string }>;
  expect(listed.map((k) => k.id)).toEqual([key.id]);
});

test("an ingest through the CLI shows up in searches on both", async () => {
  const file = join(dir(), "more.json");
  const extra = fixturePostings().slice(36);
  await Bun.write(file, JSON.stringify(extra));
  expect((await cli(["ingest", file])).stdout).toContain(`ingested ${extra.length} new`);
  const wanted = extra.filter((p) => p.job_title === "Accountant").map((p) => p.job_url);
  expect(wanted.length).toBeGreaterThan(0);
  for (const server of [one, two]) {
    const urls = await until(
      async () => ((await (await search(server, key.key, "accountant")).json()) as { results: Array<{ job_url: string }> }).results.map((r) => r.job_url),
      (found) => wanted.every((url) => found.includes(url)),
      200,
    );
    expect(urls).toEqual(expect.arrayContaining(wanted));
  }
});

test("OAuth across replicas: register on one, sign in across both, tokens valid on both, refresh reuse detected on either", async () => {
  const registered = await fetch(`${one.ready.url}/register`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "replica agent", redirect_uris: [REDIRECT] }),
  });
  expect(registered.status).toBe(201);
  const { client_id } = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const query = new URLSearchParams({ response_type: "code", client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256", state: "s1" });

  // The form comes from replica two, the person's answer lands on replica one.
  const page = await fetch(`${two.ready.url}/authorize?${query}`);
  expect(page.status).toBe(200);
  const form = parseForm(await page.text());
  const approved = await postForm(`${one.ready.url}/authorize`, { ...form.fields, api_key: key.key });
  expect(approved.status).toBe(302);
  const code = new URL(approved.headers.get("location")!).searchParams.get("code")!;

  const first = await token(two, { grant_type: "authorization_code", code, code_verifier: verifier, client_id, redirect_uri: REDIRECT });
  expect(first.status).toBe(200);
  // The code is single-use across replicas: a replay on the other one fails.
  expect((await token(one, { grant_type: "authorization_code", code, code_verifier: verifier, client_id })).status).toBe(400);
  // ...and revoked the grant of the first exchange, as a replayed code must.
  expect((await mcp(one, first.body.access_token!)).status).toBe(401);

  // A clean sign-in: issued by one, accepted by both.
  const again = await postForm(`${two.ready.url}/authorize`, { ...form.fields, api_key: key.key });
  const code2 = new URL(again.headers.get("location")!).searchParams.get("code")!;
  const issued = await token(one, { grant_type: "authorization_code", code: code2, code_verifier: verifier, client_id, redirect_uri: REDIRECT });
  expect(issued.status).toBe(200);
  expect((await mcp(one, issued.body.access_token!)).status).toBe(200);
  expect((await mcp(two, issued.body.access_token!)).status).toBe(200);

  // Rotation on two; the used refresh token replayed on one revokes the family everywhere.
  const rotated = await token(two, { grant_type: "refresh_token", refresh_token: issued.body.refresh_token!, client_id });
  expect(rotated.status).toBe(200);
  expect((await mcp(one, rotated.body.access_token!)).status).toBe(200);
  const replay = await token(one, { grant_type: "refresh_token", refresh_token: issued.body.refresh_token!, client_id });
  expect(replay.status).toBe(400);
  expect(replay.body.error).toBe("invalid_grant");
  expect((await mcp(two, rotated.body.access_token!)).status).toBe(401);
  expect((await token(two, { grant_type: "refresh_token", refresh_token: rotated.body.refresh_token!, client_id })).status).toBe(400);
});

test("a signing key rotated through the CLI: old tokens stay valid on both, a restarted replica's new tokens are accepted by the other", async () => {
  const signIn = async (server: Server) => {
    const verifier = randomBytes(32).toString("base64url");
    const registered = (await (await fetch(`${server.ready.url}/register`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [REDIRECT] }),
    })).json()) as { client_id: string };
    const query = new URLSearchParams({
      response_type: "code", client_id: registered.client_id, redirect_uri: REDIRECT,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256",
    });
    const form = parseForm(await (await fetch(`${server.ready.url}/authorize?${query}`)).text());
    const approved = await postForm(`${server.ready.url}/authorize`, { ...form.fields, api_key: key.key });
    const code = new URL(approved.headers.get("location")!).searchParams.get("code")!;
    const issued = await token(server, { grant_type: "authorization_code", code, code_verifier: verifier, client_id: registered.client_id, redirect_uri: REDIRECT });
    expect(issued.status).toBe(200);
    return issued.body.access_token!;
  };
  const kidOf = (jwt: string) => (JSON.parse(Buffer.from(jwt.split(".")[0]!, "base64url").toString()) as { kid: string }).kid;

  const before = await signIn(one);
  const rotated = await cli(["oauth", "rotate-key"]);
  expect(rotated.code).toBe(0);
  expect(rotated.stdout).toContain(`previous key ${kidOf(before)} still verifies`);
  const fresh = await spawnServer(dir(), env);
  try {
    const after = await signIn(fresh);
    expect(kidOf(after)).not.toBe(kidOf(before));
    for (const server of [one, two, fresh]) {
      expect((await mcp(server, before)).status).toBe(200);
      expect((await mcp(server, after)).status).toBe(200);
    }
  } finally {
    await fresh.stop();
  }
});

test("rate limits are shared: one key's budget is spent across both replicas", async () => {
  // Made in this process by the function `cli keys create` runs (the CLI's part is the first test's).
  const limited = await createApiKey(dir(), "limited", env, 6);
  const statuses = await Promise.all(
    Array.from({ length: 10 }, (_, i) => search(i % 2 === 0 ? one : two, limited).then((r) => r.status)),
  );
  expect(statuses.filter((s) => s === 200)).toHaveLength(6);
  expect(statuses.filter((s) => s === 429)).toHaveLength(4);
});

test("a key revoked through the CLI is refused by both replicas from the next request on", async () => {
  // Made in this process; the revoke is the CLI's.
  const victim = await createApiKey(dir(), "victim", env);
  expect((await search(one, victim)).status).toBe(200);
  expect((await search(two, victim)).status).toBe(200);
  expect((await cli(["keys", "revoke", parseKey(victim)!.id])).code).toBe(0);
  const statuses = await Promise.all([search(one, victim), search(two, victim)].map((r) => r.then((x) => x.status)));
  expect(statuses).toEqual([403, 403]);
});

test("the index-maintenance lease is held by one process at a time and released only by its holder", async () => {
  const [a, b] = await Promise.all([connectRedis(redis.url), connectRedis(redis.url)]);
  try {
    const first = createRedisLease(a, "jobsearch:lease:test", 60_000);
    const second = createRedisLease(b, "jobsearch:lease:test", 60_000);
    expect(await first.acquire()).toBe(true);
    expect(await second.acquire()).toBe(false);
    await second.release(); // not the holder: changes nothing
    expect(await second.acquire()).toBe(false);
    await first.release();
    expect(await second.acquire()).toBe(true);
  } finally {
    a.close();
    b.close();
  }
});
