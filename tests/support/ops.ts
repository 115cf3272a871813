/**
 * What the operations tests read and send: a strict parser of the Prometheus text format, a scrape of
 * /metrics, one sample's value, and a REST search or MCP tool call by URL and credentials.
 */
import { expect } from "bun:test";
import { createLogger } from "../../server/log.ts";

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * A strict reading of the Prometheus text format (0.0.4): every line is a HELP or TYPE comment or
 * a sample `name{label="value",…} number`; anything else fails the test.
 */
export function parsePrometheus(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
  const sampleLine = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`);
  const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/gy;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const help = new RegExp(`^# HELP (${NAME}) .*$`).exec(line);
    if (help) continue;
    const type = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    const match = sampleLine.exec(line);
    if (!match) throw new Error(`not Prometheus text: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    if (match[2]) {
      labelPair.lastIndex = 0;
      let consumed = 0;
      for (let pair = labelPair.exec(match[2]); pair; pair = labelPair.exec(match[2])) {
        labels[pair[1]!] = pair[2]!.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
        consumed = labelPair.lastIndex;
      }
      if (consumed !== match[2].length) throw new Error(`bad labels: ${JSON.stringify(line)}`);
    }
    const raw = match[3]!;
    const value = raw === "+Inf" ? Infinity : raw === "-Inf" ? -Infinity : raw === "NaN" ? NaN : Number(raw);
    if (raw !== "NaN" && Number.isNaN(value)) throw new Error(`bad value: ${JSON.stringify(line)}`);
    samples.push({ name: match[1]!, labels, value });
  }
  return { samples, types };
}

export async function scrape(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toStartWith("text/plain");
  return parsePrometheus(await response.text());
}

/** The value of the one sample with this name whose labels include `labels`; 0 when there is none. */
export function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

export const postSearch = (url: string, key: string, q = "nurse night shift") =>
  fetch(`${url}/v1/search`, { method: "POST", headers: { "x-api-key": key }, body: JSON.stringify({ q, top_k: 2 }) });

export const mcpCall = (url: string, headers: Record<string, string>, name = "search_jobs", args: object = { query: "swift developer", top_k: 2 }) =>
  fetch(`${url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });

/**
 * A server's log lines as they come, for a test to wait on: `logger` goes to startTestServer;
 * `request(id)` resolves with the "request" line of that x-request-id once it is written (after the
 * response went out, in the same step that observes the request metrics): an event, not a pause.
 */
export function logWatch(level: "debug" | "info" = "info") {
  const lines: string[] = [];
  const entries: Array<Record<string, unknown>> = [];
  const waiters: Array<{ match: (e: Record<string, unknown>) => boolean; resolve: (e: Record<string, unknown>) => void }> = [];
  const logger = createLogger(level, (line) => {
    lines.push(line);
    const entry = JSON.parse(line) as Record<string, unknown>;
    entries.push(entry);
    for (const waiter of waiters.filter((w) => w.match(entry))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(entry);
    }
  });
  const find = (match: (e: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> => {
    const seen = entries.find(match);
    return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ match, resolve }));
  };
  return {
    logger,
    lines,
    entries,
    /** The "request" line of the response with this x-request-id (a Response or the id). */
    request: (response: Response | string) => {
      const id = typeof response === "string" ? response : response.headers.get("x-request-id");
      return find((e) => e.msg === "request" && e.request_id === id);
    },
  };
}
