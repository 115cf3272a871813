import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { authenticateClient, registerClient } from "../../server/auth/oauth/clients.ts";
import { addressBucket } from "../../server/auth/registration-limit.ts";
import { createOAuthServer } from "../../server/auth/oauth/server.ts";
import { openOAuthStore, UNUSED_CLIENT_TTL_S, type OAuthStore } from "../../server/auth/oauth/store.ts";
import { openRedisOAuthStore } from "../../server/auth/oauth/store-redis.ts";
import { connectRedis } from "../../server/redis.ts";
import { startTestServer, tempDir, testConfig, type TestServer } from "../support/helpers.ts";
import { startRedis, type TestRedis } from "../support/redis.ts";

/** Unauthenticated OAuth endpoints under attack: registration floods, open redirects, stolen codes, slow bodies. */
let t: TestServer;
let redis: TestRedis;
beforeAll(async () => {
  [t, redis] = await Promise.all([startTestServer({ env: { OAUTH_REGISTRATIONS_PER_HOUR: "5", TRUST_PROXY: "1" } }), startRedis()]);
});
afterAll(async () => {
  await Promise.all([t.stop(), redis.stop()]);
});

let address = 0;
/** Each test registers from its own address (TRUST_PROXY=1), so the per-address limit is its own. */
const register = (body: unknown, from = `198.51.100.${++address}`) =>
  fetch(`${t.url}/register`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": from }, body: JSON.stringify(body) });

const clientRows = () => {
  const db = new Database(join(t.dataDir, "auth.sqlite"), { readonly: true });
  try {
    return db.query<{ info: string }, []>("SELECT info FROM oauth_clients").all().map((row) => JSON.parse(row.info) as Record<string, unknown>);
  } finally {
    db.close();
  }
};

describe("registration", () => {
  test("a 60 KB software_statement is refused before it is read whole, and nothing is stored", async () => {
    const before = clientRows().length;
    const response = await register({ redirect_uris: ["https://app.example.com/cb"], software_statement: "x".repeat(60_000) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "invalid_client_metadata", error_description: "request body is too large (at most 8192 bytes)" });
    expect(clientRows().length).toBe(before);
  });

  test("only the metadata the server uses is stored, each field bounded", async () => {
    const response = await register({
      redirect_uris: ["https://app.example.com/cb"], client_name: "Agent", software_statement: "eyJ.small.jwt", contacts: ["a@example.com"], jwks: { keys: [] },
    });
    expect(response.status).toBe(201);
    const { client_id } = (await response.json()) as { client_id: string };
    const stored = clientRows().find((info) => info.client_id === client_id)!;
    expect(stored.client_name).toBe("Agent");
    for (const dropped of ["software_statement", "contacts", "jwks"]) expect(stored[dropped]).toBeUndefined();
    const long = await register({ redirect_uris: ["https://app.example.com/cb"], client_uri: `https://example.com/${"a".repeat(2100)}` });
    expect(await long.json()).toMatchObject({ error: "invalid_client_metadata", error_description: "client_uri is longer than 2000 characters" });
    const many = await register({ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://app.example.com/cb${i}`) });
    expect(await many.json()).toMatchObject({ error: "invalid_redirect_uri", error_description: "at most 10 redirect_uris" });
  });

  test("one address registers at most OAUTH_REGISTRATIONS_PER_HOUR clients; another address is not held up", async () => {
    const body = { redirect_uris: ["https://app.example.com/cb"] };
    for (let i = 0; i < 5; i++) expect((await register(body, "203.0.113.77")).status).toBe(201);
    const refused = await register(body, "203.0.113.77");
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(600);
    expect(await refused.json()).toEqual({ error: "too_many_requests", error_description: `too many client registrations from this address; try again in ${retryAfter} s` });
    expect((await register(body, "203.0.113.78")).status).toBe(201);
  });

  test("IPv6 addresses count per /64: rotating the interface id does not get more registrations", async () => {
    const body = { redirect_uris: ["https://app.example.com/cb"] };
    for (let i = 1; i <= 5; i++) expect((await register(body, `2001:db8:1:2::${i.toString(16)}`)).status).toBe(201);
    const refused = await register(body, "2001:db8:1:2:dead:beef:0:1");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(600);
    expect((await register(body, "2001:db8:1:3::1")).status).toBe(201);
  });

  test.each([
    ["192.0.2.7", "192.0.2.7"],
    ["::ffff:192.0.2.7", "192.0.2.7"],
    ["::ffff:c000:207", "192.0.2.7"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:ffff:0:0:9", "2001:db8:1:2::/64"],
    ["[2001:db8:1:2::1]", "2001:db8:1:2::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["2001:db8::1::2", "2001:db8::1::2"],
    ["1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8:9"],
    ["unknown", "unknown"],
  ])("the registration limit counts %s as %s", (ip, bucket) => {
    expect(addressBucket(ip)).toBe(bucket);
  });

  test.each([
    ["view-source:", "view-source:https://app.example.com/cb"],
    ["mailto:", "mailto:someone@example.com"],
    ["jar:", "jar:https://app.example.com/app.jar!/cb"],
    ["filesystem:", "filesystem:https://app.example.com/temporary/cb"],
    ["a one-word app scheme", "myapp://callback"],
  ])("refuses a redirect URI with %s", async (_, uri) => {
    const response = await register({ redirect_uris: [uri] });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe("invalid_redirect_uri");
  });

  test.each([["https", "https://app.example.com/cb"], ["loopback http", "http://127.0.0.1:9999/cb"], ["a reverse-domain scheme", "com.example.app:/oauth/cb"]])(
    "accepts a redirect URI with %s",
    async (_, uri) => {
      expect((await register({ redirect_uris: [uri] })).status).toBe(201);
    },
  );
});

describe("unused clients expire", () => {
  const body = { redirect_uris: ["https://app.example.com/cb"] };
  const approval = (clientId: string) => ({
    clientId, redirectUri: "https://app.example.com/cb", redirectUriGiven: true, codeChallenge: "c", resource: "r", scope: "jobs:read", keyId: "k",
  });

  test("in SQLite: a client with no sign-in is refused a day after registering and deleted by the next registration; one that signed in stays", async () => {
    const dir = tempDir();
    const store: OAuthStore = openOAuthStore(dir);
    const ids = () => {
      const db = new Database(join(dir, "auth.sqlite"), { readonly: true });
      try {
        return db.query<{ client_id: string }, []>("SELECT client_id FROM oauth_clients").all().map((row) => row.client_id);
      } finally {
        db.close();
      }
    };
    try {
      const day = UNUSED_CLIENT_TTL_S;
      const now = 1_800_000_000;
      const idle = await registerClient(store, body, now - day - 10);
      const used = await registerClient(store, body, now - day - 10);
      await store.insertCode(new Uint8Array([1, 2, 3]), approval(used.client_id), now - day);
      const recent = await registerClient(store, body, now - 60);
      expect(await store.getClient(idle.client_id, now - 20)).toBeDefined();
      // Past its day it is refused at once (/authorize, /token), though the row is not yet deleted…
      expect(await store.getClient(idle.client_id, now)).toBeUndefined();
      await expect(authenticateClient(store, { client_id: idle.client_id }, null, now)).rejects.toThrow("unknown client_id");
      expect(ids()).toContain(idle.client_id);
      // …and the next registration deletes it.
      await registerClient(store, body, now);
      expect(ids()).not.toContain(idle.client_id);
      expect(await store.getClient(used.client_id, now)).toBeDefined();
      expect(await store.getClient(recent.client_id, now)).toBeDefined();
    } finally {
      store.close();
    }
  });

  test("the running server's /authorize check refuses a client registered over HTTP and never used, a day later", async () => {
    const { client_id } = (await (await register(body)).json()) as { client_id: string };
    const at = async (offsetS: number) => {
      const oauth = await createOAuthServer({ config: testConfig(t.dataDir), keys: t.server.keys, now: () => Date.now() + offsetS * 1000 });
      try {
        const check = await oauth.authorizationServer!.checkAuthorization({ client_id }, t.url);
        return check.kind === "invalid" ? check.error.message : check.kind;
      } finally {
        oauth.close();
      }
    };
    expect(await at(UNUSED_CLIENT_TTL_S - 60)).toBe("response_type must be code");
    expect(await at(UNUSED_CLIENT_TTL_S + 60)).toBe("unknown client_id; register the client first");
  });

  test("in Redis: a client key expires a day after registering (by the registration's clock) unless a code was issued to it", async () => {
    const client = await connectRedis(redis.url);
    const store = openRedisOAuthStore(client, { accessTokenTtlSeconds: 3600, ownsClient: false });
    try {
      const now = Math.floor(Date.now() / 1000);
      const ttl = (id: string) => client.send("TTL", [`jobsearch:oauth:client:${id}`]) as Promise<number>;
      const stale = await registerClient(store, body, now - UNUSED_CLIENT_TTL_S - 1);
      expect(await ttl(stale.client_id)).toBe(-2);
      expect(await store.getClient(stale.client_id, now)).toBeUndefined();
      const idle = await registerClient(store, body, now - UNUSED_CLIENT_TTL_S + 3600);
      expect(await ttl(idle.client_id)).toBeGreaterThan(3590);
      expect(await ttl(idle.client_id)).toBeLessThanOrEqual(3600);
      expect(await store.getClient(idle.client_id, now)).toBeDefined();
      const used = await registerClient(store, body, now - UNUSED_CLIENT_TTL_S + 3600);
      await store.insertCode(new Uint8Array([4, 5, 6]), approval(used.client_id), now + 60);
      expect(await ttl(used.client_id)).toBe(-1);
    } finally {
      store.close();
      client.close();
    }
  });
});

test("/authorize with only a self-registered client_id shows an error page, never a redirect to the registered site", async () => {
  const { client_id } = (await (await register({ redirect_uris: ["https://evil.example/landing"] })).json()) as { client_id: string };
  const response = await fetch(`${t.url}/authorize?client_id=${client_id}`, { redirect: "manual" });
  expect(response.status).toBe(400);
  expect(response.headers.get("location")).toBeNull();
  expect(response.headers.get("content-type")).toContain("text/html");
  expect(await response.text()).toContain("response_type must be code");
});

test("bodies that trickle in are cut off after 10 s on /register, /token and /v1/search", async () => {
  const trickle = (path: string, type: string, start: string) =>
    new Promise<{ status?: number; ms: number; body: string }>((resolve, reject) => {
      const started = performance.now();
      let received = "";
      let timer: ReturnType<typeof setInterval> | undefined;
      const done = () => {
        clearInterval(timer);
        const [head = "", ...rest] = received.split("\r\n\r\n");
        const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
        resolve({ ...(status ? { status: Number(status) } : {}), ms: performance.now() - started, body: rest.join("") });
      };
      Bun.connect({
        hostname: "127.0.0.1",
        port: t.server.port,
        socket: {
          open(socket) {
            socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nx-api-key: ${t.apiKey}\r\nContent-Length: 5000\r\n\r\n${start}`);
            // One byte every 400 ms: Bun's idle timer never fires, the body would take half an hour.
            timer = setInterval(() => socket.write(" "), 400);
          },
          data(socket, data) {
            received += data.toString();
            if (received.includes("\r\n\r\n")) {
              done();
              socket.end();
            }
          },
          close: done,
          connectError: (_, error) => reject(error),
        },
      });
    });
  const [registration, token, search] = await Promise.all([
    trickle("/register", "application/json", '{"redirect_uris":'),
    trickle("/token", "application/x-www-form-urlencoded", "grant_type=authorization_code"),
    trickle("/v1/search", "application/json", '{"q":'),
  ]);
  // Not before the deadline (a timer never fires early); how late after it depends on the machine's load, so no upper bound.
  for (const answer of [registration, token, search]) expect(answer.ms).toBeGreaterThan(9_000);
  expect(registration.status).toBe(400);
  expect(registration.body).toContain("request body not received within 10 s");
  expect(token.status).toBe(400);
  expect(token.body).toContain("request body not received within 10 s");
  expect(search.status).toBe(408);
  expect(search.body).toContain('"error_code":"REQUEST_TIMEOUT"');
}, 30_000);
