/**
 * How many of a seed's requests (tests/support/engine-diff.ts engineRequests) it takes to make every kind
 * of input the generator makes. `bun bench/perf/engines-coverage.ts [--seed 67] [--step 8] [--search 0]`
 *
 * A kind: a parameter's literal value (each hostile string, extreme number, currency, offset…), a value
 * of the data (a real city, a list of them), each element of an enumerated list (seniority, facets), a
 * missing `q`, each parameter sent by GET and by POST, each pair of parameters set together. All kinds
 * are those 40 seeds × 3,000 requests make (more make no new one). Prints the shortest prefix of `--seed`
 * holding them all (what tests/hardening/engines-agree.test.ts sends), and with `--search N` the seeds
 * 1…N whose prefix is shortest. Run it again when the generator changes.
 */
import { parseArgs } from "node:util";
import { FACET_NAMES } from "../../shared/search.ts";
import { EMPLOYMENT_TYPES, SENIORITY_LEVELS } from "../../shared/search-params.ts";
import { engineRequests, samplePostings, type EngineRequest } from "../../tests/support/engine-diff.ts";

const { values } = parseArgs({ options: { seed: { type: "string", default: "67" }, step: { type: "string", default: "8" }, search: { type: "string", default: "0" } } });
const postings = await samplePostings(Number(values.step));
const kinds = kindsOf(postings);

const all = new Set<string>();
for (let seed = 1; seed <= 40; seed++) for (const request of engineRequests(seed * 7919, 3000, postings)) for (const kind of kinds(request)) all.add(kind);
console.log(`kinds: ${all.size}`);

const prefix = (seed: number, most: number): number | undefined => {
  const seen = new Set<string>();
  const requests = engineRequests(seed, most, postings);
  for (const [i, request] of requests.entries()) {
    for (const kind of kinds(request)) seen.add(kind);
    if (seen.size === all.size) return i + 1;
  }
  return undefined;
};
const own = prefix(Number(values.seed), 5000);
console.log(`seed ${values.seed}: ${own ?? "more than 5000"} requests make every kind`);
const best: Array<{ seed: number; requests: number }> = [];
for (let seed = 1; seed <= Number(values.search); seed++) {
  const requests = prefix(seed, 1500);
  if (requests !== undefined) best.push({ seed, requests });
}
if (best.length > 0) console.log(best.sort((a, b) => a.requests - b.requests).slice(0, 10));

// --- internal ---

/** The kinds of input one request holds. */
function kindsOf(postings: Array<Record<string, any>>): (request: EngineRequest) => string[] {
  const present = (field: string) => new Set(postings.map((p) => p[field]).filter((v) => typeof v === "string" && v !== "") as string[]);
  const data: Record<string, Set<string>> = {
    city: present("city"), country: present("country"), company: present("company_name"), source: present("data_source"),
    tags: new Set(postings.flatMap((p) => ((p.job_tags ?? []) as string[]).map((tag) => tag.toLowerCase()))),
  };
  const titles = present("job_title");
  const firstWords = new Set([...titles].map((title) => title.split(" ")[0]!));
  const enumerated: Record<string, Set<string>> = { seniority: new Set(SENIORITY_LEVELS), employment_type: new Set(EMPLOYMENT_TYPES), facets: new Set(FACET_NAMES) };
  // Literal queries that are also words of the data count as literals.
  const literalQueries = new Set(["engineer", "jobs", "internship"]);
  return ({ via, body }) => {
    const out = [`via:${via}`];
    const names = Object.keys(body);
    if (!names.includes("q")) out.push("q:absent");
    for (const [name, value] of Object.entries(body)) {
      const fromData = data[name];
      const fromList = enumerated[name];
      const list = Array.isArray(value) && value.length > 0 ? (value as unknown[]) : undefined;
      const size = list !== undefined && list.length > 1 ? "many" : "one";
      if (name === "q" && typeof value === "string" && !literalQueries.has(value) && (titles.has(value) || firstWords.has(value))) {
        out.push(`q:${titles.has(value) ? "a title" : "a title's first word"}`);
      } else if (typeof value === "string" && fromData?.has(value)) out.push(`${name}:a value of the data`);
      else if (list && fromData && list.every((item) => fromData.has(item as string))) out.push(`${name}:values of the data (${size})`);
      else if (list && fromList && list.every((item) => fromList.has(item as string))) {
        out.push(`${name}:listed values (${size})`, ...list.map((item) => `${name}[]:${item}`));
      } else out.push(`${name}:${JSON.stringify(value)}`);
    }
    for (const a of names) {
      out.push(`${via}:${a}`);
      for (const b of names) if (a < b) out.push(`pair:${a}+${b}`);
    }
    return out;
  };
}
