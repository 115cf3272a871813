/**
 * The two engines on many more requests than the suite sends. `bun bench/perf/engines-agree.ts
 * [--requests 20000] [--step 1] [--seed N]`
 *
 * Loads every `step`-th shared posting (1: all 29,513) into a temp DATA_DIR and starts two servers
 * on it: one answering from the in-memory copy, one with HOT_PATH_MAX_POSTINGS below the table so
 * LanceDB answers (tests/support/engine-diff.ts). VECTOR_INDEX_MIN_ROWS is set above the table: with
 * the ANN index LanceDB's nearest neighbours are approximate (recall ~0.99) by design, and only the
 * exact search can be held to the copy's. Prints the count of disagreements and the first few.
 */
import { parseArgs } from "node:util";
import { disagreements, engineRequests, samplePostings, startEnginePair } from "../../tests/support/engine-diff.ts";

const { values } = parseArgs({ options: { requests: { type: "string", default: "20000" }, step: { type: "string", default: "1" }, seed: { type: "string", default: "7" } } });
const started = performance.now();
const postings = await samplePostings(Number(values.step));
const pair = await startEnginePair(postings, { VECTOR_INDEX_MIN_ROWS: String(postings.length + 1) });
console.log(`table: ${postings.length} postings, loaded in ${Math.round((performance.now() - started) / 1000)} s`);
try {
  const requests = engineRequests(Number(values.seed), Number(values.requests), postings);
  const sent = performance.now();
  const found = await disagreements(pair, requests);
  console.log(`requests: ${requests.length} in ${Math.round((performance.now() - sent) / 1000)} s`);
  console.log(`disagreements: ${found.length}`);
  for (const { request, memory, lance } of found.slice(0, 5)) console.log(JSON.stringify({ request, memory, lance }).slice(0, 2000));
} finally {
  await pair.stop();
}
