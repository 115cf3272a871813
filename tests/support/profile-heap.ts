/**
 * `bun tests/support/profile-heap.ts HEAD TAIL CONTROL`: a server in this process on the fixture postings
 * is sent profiles holding the word HEAD+TAIL (in a name, a place, a skill, a wish, free text; and a
 * profile of nothing the service knows, whose first words are searched) over POST /v1/match and MCP's
 * explain_match, then other people's profiles. After a full collection it prints whether the process's
 * heap (a V8 snapshot, strings included) still holds the word (`held`), and, as the check's control,
 * whether it holds CONTROL+HEAD, kept on purpose (`control`). Neither word is ever whole in this process
 * but where it is used: its parts are joined there.
 */
import { fixturePostings } from "./fixtures/postings.ts";
import { startTestServer } from "./helpers.ts";

const [head = "", tail = "", control = ""] = process.argv.slice(2);
const t = await startTestServer({ records: fixturePostings() });

async function send(): Promise<void> {
  const word = head + tail;
  const profiles = [
    [`# ${word} Smith`, `Location: ${word}, Berlin`, "Senior Backend Engineer, 9 years of Python and PostgreSQL.", `Skills: Python, ${word}, Kubernetes`,
      `Looking for: remote roles, ideally in ${word}`, `Built the ${word} platform for payments.`].join("\n"),
    `${word} ${word}ly un${word} ${word}s`,
  ];
  const post = (path: string, body: object) =>
    fetch(`${t.url}${path}`, { method: "POST", headers: { "x-api-key": t.apiKey, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify(body) });
  let id = "";
  for (const profile of profiles) {
    const response = await post("/v1/match", { profile, top_k: 5 });
    if (response.status !== 200) throw new Error(`match answered ${response.status}: ${await response.text()}`);
    id = ((await response.json()) as { results: Array<{ id: string }> }).results[0]?.id ?? id;
  }
  const explained = await post("/mcp", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "explain_match", arguments: { id, profile: profiles[0] } } });
  if (explained.status !== 200) throw new Error(`explain_match answered ${explained.status}`);
  await explained.text();
}

/**
 * Other people's requests: what the runtime holds of the last ones it ran (a regular expression's last
 * input, the names a compiled function last looked up) moves on to theirs.
 */
async function others(): Promise<void> {
  for (const profile of ["Location: Toronto\nNurse with 5 years in intensive care; Epic, triage, phlebotomy.", "Data analyst, SQL and Tableau, Lisbon or remote"]) {
    const response = await fetch(`${t.url}/v1/match`, { method: "POST", headers: { "x-api-key": t.apiKey, "content-type": "application/json" }, body: JSON.stringify({ profile }) });
    await response.text();
  }
}

await send();
/**
 * Whether the heap holds the word (in any case), and the control word. Not counted: a constant of compiled
 * code (the JIT keeps the names a function last looked up in its inline caches, a few per site, replaced as
 * other requests run), and a scope nothing refers to: the collector keeps what a stale pointer on the
 * machine stack seems to point at (it scans the stack conservatively; once in ~40 runs on a busy machine,
 * the scope of a finished spelling lookup of the word). Any other holder counts, a string no edge is
 * recorded to included (a Map's or Set's storage).
 */
function heldWords(): { held: boolean; control: boolean } {
  Bun.gc(true);
  const snapshot = JSON.parse(Bun.generateHeapSnapshot("v8")) as HeapSnapshot;
  const { node_fields: nodeFields, edge_fields: edgeFields, node_types: [nodeTypes] } = snapshot.snapshot.meta;
  const [nodeWidth, edgeWidth] = [nodeFields.length, edgeFields.length];
  const [nameAt, typeAt, edgesAt, toAt] = [nodeFields.indexOf("name"), nodeFields.indexOf("type"), nodeFields.indexOf("edge_count"), edgeFields.indexOf("to_node")];
  const { nodes, edges, strings } = snapshot;
  // Made after the snapshot, so that they are not in it.
  const needles = [`${head}${tail}`.toLowerCase(), `${control}${head}`.toLowerCase()];
  const found = needles.map(() => [] as number[]);
  const retainers = new Map<number, number[]>();
  for (let at = 0; at < nodes.length; at += nodeWidth) {
    const name = strings[nodes[at + nameAt]!]!.toLowerCase();
    needles.forEach((needle, i) => name.includes(needle) && (found[i]!.push(at), retainers.set(at, [])));
  }
  // Each node's count of incoming edges (by its offset), and the nodes that hold a found string.
  const incoming = new Uint32Array(nodes.length / nodeWidth);
  let edge = 0;
  for (let at = 0; at < nodes.length; at += nodeWidth) {
    for (let i = 0; i < nodes[at + edgesAt]!; i++, edge += edgeWidth) {
      const to = edges[edge + toAt]!;
      incoming[to / nodeWidth]!++;
      retainers.get(to)?.push(at);
    }
  }
  const holds = (at: number) =>
    nodeTypes[nodes[at + typeAt]!] !== "code" && !(strings[nodes[at + nameAt]!] === "system / JSLexicalEnvironment" && incoming[at / nodeWidth] === 0);
  // What holds each found string (none: it is free); a string no edge is recorded to holds itself.
  const describe = (at: number) => `${nodeTypes[nodes[at + typeAt]!]} ${strings[nodes[at + nameAt]!]!.slice(0, 80)}`;
  const holdersOf = (words: number[]) => words.flatMap((at) => {
    const by = retainers.get(at)!;
    return by.length === 0 ? [`${describe(at)} (no retainer)`] : by.filter(holds).map((from) => `${describe(from)} → ${describe(at)}`);
  });
  // The word's holders are printed when there are any: the failure says where to look.
  const holders = holdersOf(found[0]!);
  return { held: holders.length > 0, control: holdersOf(found[1]!).length > 0, ...(holders.length > 0 ? { holders } : {}) };
}

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; edge_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

// The control: a word of the same kind, kept on purpose, which the check must find.
(globalThis as Record<string, unknown>).kept = [`${control}${head}`.toLowerCase()];
await others();
// A word held in one snapshot only was held by a stale pointer on the machine stack (the collector scans it
// conservatively, see heldWords): after other requests and another collection, from another stack depth, it is
// gone. A word a memo or cache keeps is held in both.
let seen = heldWords();
if (seen.held) {
  await others();
  seen = heldWords();
}
console.log(JSON.stringify(seen));
await t.stop();
