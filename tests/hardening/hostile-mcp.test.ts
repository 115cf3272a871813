import { beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { TestServer } from "../support/helpers.ts";
import {
  anyValue, CITIES, hostileString, hugeNumber, MCP_ACCEPT, PARAMS, printable, searchCase, toJson, UUID, wrongType,
} from "../support/hostile/arbitraries.ts";
import { check, expectJsonRpc, expectJsonRpcMessage, hostileServer, isPlainObject } from "../support/hostile/checks.ts";

/**
 * Property-based tests (fast-check) of every MCP argument and the JSON-RPC envelope (/mcp) against a
 * real server: random strings, huge numbers, wrong types, unicode edge cases and very long values must
 * never give a 5xx, never widen a filter beyond its literal value, and always fail in the spec's shape.
 * The seed is fixed (SEED in tests/support/hostile/arbitraries.ts) and printed with any failure.
 */
const server = hostileServer();
const { send, rpc, expectLiteralFilters } = server;
let t: TestServer;
beforeAll(() => {
  t = server.t;
});

describe("MCP /mcp under hostile input", () => {
  test("tools/call search_jobs: any arguments give a result with literal filters, an isError naming the argument, or a JSON-RPC error", async () => {
    const args = fc.oneof(
      { weight: 6, arbitrary: searchCase("query") },
      { weight: 1, arbitrary: wrongType.map((params) => ({ params: params as unknown, valid: false })) },
    );
    await check(200, fc.asyncProperty(args, fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), async ({ params: a, valid }, id) => {
      const response = await rpc({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_jobs", arguments: a } });
      const body = await expectJsonRpc(response, id);
      if ("error" in body) {
        expect(isPlainObject(JSON.parse(toJson(a)))).toBe(false); // only a non-object `arguments` is a protocol error
        return;
      }
      const result = body.result as { isError?: boolean; content: Array<{ type: string; text: string }>; structuredContent?: any };
      expect(result.content).toHaveLength(1);
      expect(result.content[0]!.type).toBe("text");
      const sent = JSON.parse(toJson(a)) as Record<string, unknown>;
      if (valid) expect(result.isError).toBeUndefined();
      if (result.isError) {
        expect(result.content[0]!.text).toMatch(new RegExp(`^(query is required|(${PARAMS.join("|")}) )`));
        return;
      }
      expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
      expectLiteralFilters(result.structuredContent.results, sent);
    }));
  });

  test("tools/call list_cities ignores any arguments; unknown tools give the spec's isError text", async () => {
    const name = fc.oneof({ weight: 2, arbitrary: fc.constant("list_cities") }, { weight: 1, arbitrary: hostileString });
    await check(60, fc.asyncProperty(name, fc.dictionary(fc.string({ maxLength: 8 }), anyValue, { maxKeys: 3 }), async (tool, a) => {
      const response = await rpc({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: tool, arguments: a } });
      const body = await expectJsonRpc(response, 9);
      expect(body.error).toBeUndefined();
      const result = body.result as { isError?: boolean; content: Array<{ type: string; text: string }>; structuredContent?: any };
      if (tool === "list_cities") {
        expect(result.structuredContent.cities).toEqual([...CITIES].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      } else if (tool !== "search_jobs") {
        // A long name is quoted up to 200 characters (error messages quote at most that much of a value).
        const quoted = tool.length > 200 ? `${tool.slice(0, 200)}…` : tool;
        expect(result).toEqual({ isError: true, content: [{ type: "text", text: `MCP error -32602: Tool ${quoted} not found` }] });
      }
    }));
  });

  test("the JSON-RPC envelope: any jsonrpc, id, method, params, batch, body text or headers gives a well-formed answer, never a 5xx", async () => {
    const method = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom("initialize", "tools/list", "tools/call", "ping", "notifications/initialized", "resources/list", "prompts/list", "logging/setLevel", "completion/complete") },
      { weight: 1, arbitrary: anyValue },
    );
    const envelope = fc.record(
      {
        jsonrpc: fc.oneof({ weight: 4, arbitrary: fc.constant("2.0") }, { weight: 1, arbitrary: anyValue }),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), hugeNumber, anyValue),
        method,
        params: fc.oneof(
          fc.constant({}),
          fc.constant({ protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "fuzz", version: "0" } }),
          fc.record({ name: fc.constantFrom("search_jobs", "list_cities"), arguments: fc.constant({ query: "nurse" }) }),
          anyValue,
        ),
      },
      { requiredKeys: ["method"] },
    );
    const body = fc.oneof(
      { weight: 5, arbitrary: envelope.map(toJson) },
      { weight: 1, arbitrary: fc.array(envelope, { minLength: 1, maxLength: 3 }).map(toJson) },
      { weight: 1, arbitrary: fc.oneof(hostileString, fc.json(), fc.constantFrom("", "{", "[]", "[[]]", "null", "{\"jsonrpc\":\"2.0\"")) },
    );
    const accept = fc.oneof({ weight: 6, arbitrary: fc.constant(MCP_ACCEPT) }, { weight: 1, arbitrary: fc.constantFrom("application/json", "text/event-stream", "*/*", "") }, { weight: 1, arbitrary: printable });
    const contentType = fc.oneof({ weight: 6, arbitrary: fc.constant("application/json") }, { weight: 1, arbitrary: fc.constantFrom("text/plain", "", "application/json; charset=utf-8") });
    await check(250, fc.asyncProperty(body, accept, contentType, async (text, acceptHeader, type) => {
      const response = await send(`${t.url}/mcp`, { method: "POST", headers: { "x-api-key": t.apiKey, accept: acceptHeader, "content-type": type }, body: text });
      expect(response.status).toBeLessThan(500);
      expect(response.headers.get("x-request-id")).toMatch(UUID);
      const raw = await response.text();
      if (response.status === 202) return void expect(raw).toBe("");
      const answer = JSON.parse(raw) as unknown;
      for (const message of Array.isArray(answer) ? answer : [answer]) expectJsonRpcMessage(message);
      if (response.status === 406) {
        expect((answer as any).error.code).toBe(-32000);
        expect((answer as any).error.message).toStartWith("Not Acceptable:");
        expect((answer as any).id).toBeNull();
      }
    }));
  });
});
