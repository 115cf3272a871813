import { mcpBodies, SEARCH_BODIES } from "./requests.ts";

/**
 * Sends every body of the mix once (REST and MCP) and checks the answers are real results,
 * so the load figures measure searches and not fast errors. Returns a note per problem.
 */
export async function checkTargets(url: string, apiKey: string): Promise<string[]> {
  const problems: string[] = [];
  const headers = { "content-type": "application/json", "x-api-key": apiKey };
  let empty = 0;
  for (const body of SEARCH_BODIES) {
    const response = await fetch(`${url}/v1/search`, { method: "POST", headers, body: JSON.stringify(body) });
    const json = (await response.json()) as { results?: unknown[] };
    if (response.status !== 200) problems.push(`REST body ${JSON.stringify(body)} answered ${response.status}: ${JSON.stringify(json).slice(0, 200)}`);
    else if (!json.results?.length) empty++;
  }
  if (empty > 0) problems.push(`${empty} of ${SEARCH_BODIES.length} REST bodies found no results.`);
  for (const body of mcpBodies()) {
    const response = await fetch(`${url}/mcp`, {
      method: "POST",
      headers: { ...headers, accept: "application/json, text/event-stream" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const data = text.split("\n").find((line) => line.startsWith("data: "))?.slice(6) ?? text;
    const message = JSON.parse(data) as { result?: { isError?: boolean; content?: Array<{ text?: string }> } };
    if (response.status !== 200 || message.result?.isError || !message.result) {
      problems.push(`MCP call ${JSON.stringify(body).slice(0, 120)} failed (${response.status}): ${data.slice(0, 200)}`);
    }
  }
  return problems;
}

/**
 * Sends each body once to POST /v1/search, `concurrency` at a time, and throws, quoting the first
 * failures, unless every answer is 200: the load runs must measure searches, not errors. Returns how
 * many answers held no result.
 */
export async function checkBodies(url: string, apiKey: string, bodies: string[], concurrency = 8): Promise<{ checked: number; empty: number }> {
  const headers = { "content-type": "application/json", "x-api-key": apiKey };
  const failures: string[] = [];
  let empty = 0;
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++]!;
      const response = await fetch(`${url}/v1/search`, { method: "POST", headers, body });
      const text = await response.text();
      if (response.status !== 200) failures.push(`${response.status} for ${body}: ${text.slice(0, 200)}`);
      else if ((JSON.parse(text) as { results?: unknown[] }).results?.length === 0) empty++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (failures.length > 0) {
    throw new Error(`${failures.length} of ${bodies.length} mix bodies did not answer 200:\n${failures.slice(0, 5).join("\n")}`);
  }
  return { checked: bodies.length, empty };
}
