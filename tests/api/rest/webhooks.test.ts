import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ingestRecords } from "../../../server/ingest/ingest.ts";
import { signature } from "../../../server/saved/deliver.ts";
import { anotherJobLike, fixturePostings } from "../../support/fixtures/postings.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { startReceiver, type ReceivedHook, type Receiver } from "../../support/receiver.ts";

/**
 * Webhooks of saved searches with a real receiver on loopback (allowed by WEBHOOK_ALLOW_PRIVATE):
 * after a load the new matches are POSTed, signed; a receiver that fails and then times out gets
 * the same delivery again (same Idempotency-Key) until it answers, and nothing is lost or doubled.
 */

let t: TestServer;
let receiver: Receiver;
let saved: { id: string; webhook_secret: string };
let serial = 0;
beforeAll(async () => {
  receiver = startReceiver();
  t = await startTestServer({
    records: fixturePostings(),
    env: { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_TIMEOUT_MS: "1000", WEBHOOK_RETRY_BASE_MS: "20", WEBHOOK_POLL_MS: "50" },
  });
  const response = await fetch(`${t.url}/v1/saved-searches`, {
    method: "POST", headers: { "x-api-key": t.apiKey, "content-type": "application/json" },
    body: JSON.stringify({ name: "nurses", q: "registered nurse", city: "London", webhook_url: receiver.url }),
  });
  expect(response.status).toBe(201);
  saved = (await response.json()) as typeof saved;
});
afterAll(async () => {
  await t.stop();
  await receiver.stop();
});

async function loadNurses(count: number): Promise<string[]> {
  const nurse = fixturePostings().find((p) => p.job_title === "Registered Nurse" && p.city === "London")!;
  const records = Array.from({ length: count }, () => {
    const id = `hook-${++serial}`;
    return { ref: id, value: anotherJobLike(nurse, id) };
  });
  await ingestRecords(t.server, [...records, { ref: "other", value: { ...fixturePostings()[0]!, id: `other-${serial}`, job_url: `https://jobs.example.com/other-${serial}` } }]);
  return records.map((r) => r.ref);
}

const deliveries = async () => ((await (await fetch(`${t.url}/v1/saved-searches/${saved.id}/deliveries`, { headers: { "x-api-key": t.apiKey } })).json()) as { deliveries: any[] }).deliveries;
/** Round after round of the sender (each ends with the outbox updated) until the newest delivery is marked. */
async function settled(): Promise<any[]> {
  while ((await deliveries())[0]?.status === "pending") await t.server.webhooks.tick();
  return deliveries();
}
const idsOf = (hook: ReceivedHook) => (JSON.parse(hook.body) as { results: Array<{ id: string }> }).results.map((r) => r.id).sort();
const delivered = (received: ReceivedHook[]) => received.filter((hook) => hook.answered === "ok" || hook.answered === "big");

describe("webhooks", () => {
  test("the secret is shown once, at creation", async () => {
    expect(saved.webhook_secret.length).toBeGreaterThanOrEqual(43);
    const again = (await (await fetch(`${t.url}/v1/saved-searches/${saved.id}`, { headers: { "x-api-key": t.apiKey } })).json()) as Record<string, unknown>;
    expect(again.webhook_url).toBe(receiver.url);
    expect(again.webhook_secret).toBeUndefined();
  });

  test("a receiver that fails, then times out, then answers gets one delivery three times, signed, with one key", async () => {
    receiver.plan.push("fail", "hang");
    const loaded = await loadNurses(2);
    await receiver.until((received) => delivered(received).length === 1);
    const attempts = receiver.received;
    expect(attempts.map((hook) => hook.answered)).toEqual(["fail", "hang", "ok"]);
    const keys = new Set(attempts.map((hook) => hook.headers["idempotency-key"]));
    expect(keys.size).toBe(1);
    for (const hook of attempts) {
      expect(hook.body).toBe(attempts[0]!.body);
      const timestamp = Number(hook.headers["x-jobsearch-timestamp"]);
      expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(600);
      expect(hook.headers["x-jobsearch-signature"]).toBe(signature(saved.webhook_secret, timestamp, hook.body));
      expect(hook.headers["content-type"]).toBe("application/json");
    }
    const body = JSON.parse(attempts[0]!.body) as Record<string, any>;
    expect(body).toMatchObject({ delivery_id: [...keys][0], saved_search: { id: saved.id, name: "nurses" }, total: 2 });
    expect(idsOf(attempts[0]!)).toEqual(loaded.sort());

    const log = await settled();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ id: [...keys][0], status: "delivered", attempts: 3, postings: 2, last_status: 200, last_error: null, next_attempt_at: null });
    await t.server.webhooks.tick(); // a whole round after it: the pending count is the outbox's now
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toContain('jobsearch_webhook_deliveries_total{outcome="delivered"} 1');
    expect(metrics).toContain('jobsearch_webhook_deliveries_total{outcome="retry"} 2');
    expect(metrics).toContain("jobsearch_webhook_outbox_pending 0");
  });

  test("the next load is a new delivery with only its own postings: nothing lost, nothing doubled", async () => {
    const loaded = await loadNurses(1);
    await receiver.until((received) => delivered(received).length === 2);
    const [first, second] = delivered(receiver.received);
    expect(second!.headers["idempotency-key"]).not.toBe(first!.headers["idempotency-key"]);
    expect(idsOf(second!)).toEqual(loaded);
    const everyId = delivered(receiver.received).flatMap(idsOf);
    expect(new Set(everyId).size).toBe(everyId.length);
    expect(everyId).toHaveLength(3);
    // The `new` check has its own cursor: the webhook took nothing from it.
    const check = (await (await fetch(`${t.url}/v1/saved-searches/${saved.id}/new`, { headers: { "x-api-key": t.apiKey } })).json()) as { results: unknown[] };
    expect(check.results).toHaveLength(3);
  });

  test("a redirect is a failure (not followed); an endless answer is read no further than the cap", async () => {
    receiver.plan.push("redirect", "big");
    const before = receiver.received.length;
    const loaded = await loadNurses(1);
    // Counted from this test's first request: what earlier tests' retries delivered meanwhile is theirs.
    await receiver.until((received) => delivered(received.slice(before)).length === 1);
    expect(receiver.received.slice(before, before + 2).map((hook) => hook.answered)).toEqual(["redirect", "big"]);
    expect(idsOf(receiver.received.at(-1)!)).toEqual(loaded);
    const [latest] = await settled();
    expect(latest).toMatchObject({ status: "delivered", postings: 1, last_status: 200 });
    expect(latest.attempts).toBeGreaterThanOrEqual(2);
  });
});
