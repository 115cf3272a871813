/**
 * Issue 17's request mix: ≥ 10,000 distinct POST /v1/search bodies, seeded, built from the table's own
 * job titles and the judged query sets (bench/relevance/), so an uncached run never asks the same
 * thing twice. About a third carry filters (every kind the API has, values taken from the postings),
 * top_k 10–50, some deep pages (offset 50–200) and a few detail=full.
 */
import * as lancedb from "@lancedb/lancedb";
import { QUERIES, type JudgedQuery } from "../../relevance/sets/queries.ts";
import { CONSTRAINT_QUERIES, FRESH_TYPO_QUERIES, TYPO_QUERIES } from "../../relevance/sets/constraint-queries.ts";
import { misspell } from "../../relevance/sets/typos.ts";
import { TABLE_NAME } from "../../../server/store/schema.ts";
import { seededRandom } from "./stats.ts";

export interface MixBody {
  q: string;
  city?: string | string[];
  country?: string | string[];
  source?: string;
  since?: string;
  until?: string;
  remote?: boolean;
  seniority?: string[];
  employment_type?: string[];
  tags?: string[];
  company?: string;
  near?: string;
  radius_km?: number;
  salary_min?: number;
  salary_currency?: string;
  top_k: number;
  offset?: number;
  detail?: "full";
}

/** The posting fields the mix takes its texts and filter values from. */
export interface MixSource {
  title: Array<string | null>;
  city: Array<string | null>;
  country: Array<string | null>;
  source: string[];
  publishTs: Float64Array;
  seniority: Array<string | null>;
  employmentType: Array<string | null>;
  tags: string[][];
  company: Array<string | null>;
  salaryMaxUsd: Array<number | null>;
}

/** The filters every peer can express (city, country, source, publication time); the others are dropped for peers. */
export const PEER_FILTERS = ["city", "country", "source", "since", "until"] as const;

export const MIX_SIZE = 12_000;

/** Reads the mix's columns of the table in `dataDir`. */
export async function loadMixSource(dataDir: string): Promise<MixSource> {
  const db = await lancedb.connect(dataDir);
  const table = await db.openTable(TABLE_NAME);
  try {
    const columns = ["job_title", "city", "country", "data_source", "publish_ts", "seniority_level", "employment_type", "tag_keys", "company_name", "salary_max_usd"];
    const rows = await table.query().select(columns).toArray();
    return {
      title: rows.map((r) => r.job_title as string | null),
      city: rows.map((r) => r.city as string | null),
      country: rows.map((r) => r.country as string | null),
      source: rows.map((r) => r.data_source as string),
      publishTs: Float64Array.from(rows, (r) => r.publish_ts as number),
      seniority: rows.map((r) => r.seniority_level as string | null),
      employmentType: rows.map((r) => r.employment_type as string | null),
      tags: rows.map((r) => [...((r.tag_keys as Iterable<string> | null) ?? [])]),
      company: rows.map((r) => r.company_name as string | null),
      salaryMaxUsd: rows.map((r) => r.salary_max_usd as number | null),
    };
  } finally {
    table.close();
    db.close();
  }
}

/** `size` distinct bodies, the same for the same data and seed. */
export function buildMix(source: MixSource, size = MIX_SIZE, seed = 17): MixBody[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const topTags = mostCommon(source.tags.flat(), 100).filter((tag) => tag !== "remote");
  const texts = queryTexts(source, size, topTags, random);
  const bodies: MixBody[] = [];
  for (const text of shuffle(texts, random)) {
    const anchor = text.anchor ?? Math.floor(random() * source.title.length);
    const body: MixBody = { q: text.q, ...text.filters, top_k: 10 + Math.floor(random() * 41) };
    if (random() < 1 / 3) {
      const kinds = random() < 0.3 ? 2 : 1;
      for (let k = 0; k < kinds; k++) addFilter(body, pick(FILTER_KINDS), source, anchor, topTags, random);
    }
    if (random() < 0.08) body.offset = 50 + Math.floor(random() * 151);
    if (random() < 0.03) body.detail = "full";
    bodies.push(body);
  }
  return bodies;
}

/** The mix as peers can answer it: only PEER_FILTERS kept, duplicates left out; with the count of bodies that lost a filter. */
export function peerMix(bodies: MixBody[]): { bodies: MixBody[]; dropped: number } {
  const seen = new Set<string>();
  const out: MixBody[] = [];
  let dropped = 0;
  for (const body of bodies) {
    const { q, top_k, offset, detail } = body;
    const kept: MixBody = { q, top_k, ...(offset !== undefined ? { offset } : {}), ...(detail ? { detail } : {}) };
    for (const name of PEER_FILTERS) if (body[name] !== undefined) (kept as unknown as Record<string, unknown>)[name] = body[name];
    const all = Object.keys(body).filter((key) => FILTER_NAMES.has(key)).length;
    if (Object.keys(kept).filter((key) => FILTER_NAMES.has(key)).length < all) dropped++;
    const key = JSON.stringify(kept);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(kept);
  }
  return { bodies: out, dropped };
}

/** Share of bodies with at least one filter. */
export function filteredShare(bodies: MixBody[]): number {
  return bodies.filter((b) => Object.keys(b).some((key) => FILTER_NAMES.has(key))).length / Math.max(1, bodies.length);
}

// --- internal ---

type FilterKind = "city" | "country" | "source" | "since" | "until" | "remote" | "seniority" | "employment_type" | "tags" | "salary" | "near" | "company";

/** Weighted by how often people use them: a kind listed twice is drawn twice as often. */
const FILTER_KINDS: FilterKind[] = [
  "city", "city", "city", "country", "country", "since", "since", "source", "until", "remote", "remote",
  "seniority", "seniority", "employment_type", "tags", "tags", "salary", "near", "company",
];
const FILTER_NAMES = new Set(["city", "country", "source", "since", "until", "remote", "seniority", "employment_type", "tags", "company", "near", "salary_min"]);
/** Places the gazetteer knows (an unknown place is a 400), in the forms the API documents. */
const PLACES = ["San Francisco", "London", "Berlin", "Mountain View, CA", "Cambridge, GB", "Toronto", "Paris", "New York City", "Seattle", "Boston", "Amsterdam", "Austin"];
const DAY = 86_400;

interface QueryText {
  q: string;
  /** The posting the text came from: its fields become the filter values, so filtered searches find something. */
  anchor?: number;
  filters?: Partial<MixBody>;
}

/** Distinct texts: the judged queries, the data's titles, then typos and role + skill or place combinations until `size`. */
function queryTexts(source: MixSource, size: number, topTags: string[], random: () => number): QueryText[] {
  const judged: JudgedQuery[] = [...QUERIES, ...CONSTRAINT_QUERIES, ...TYPO_QUERIES, ...FRESH_TYPO_QUERIES];
  const seen = new Set<string>();
  const out: QueryText[] = [];
  const add = (text: QueryText) => {
    const key = text.q.toLowerCase();
    if (text.q === "" || seen.has(key) || out.length >= size) return;
    seen.add(key);
    out.push(text);
  };
  for (const j of judged) add({ q: j.query, filters: wireFilters(j) });
  source.title.forEach((title, anchor) => {
    const q = cleanTitle(title);
    if (q) add({ q, anchor });
  });
  const places = [...new Set(source.city.filter((c): c is string => c !== null && /^[A-Za-z .-]+$/.test(c)))].slice(0, 200);
  for (let seed = 1; out.length < size && seed < size * 20; seed++) {
    const base = judged[Math.floor(random() * judged.length)]!.query;
    const roll = random();
    if (roll < 0.4) add({ q: misspell(base, seed) });
    else if (roll < 0.7) add({ q: `${base} ${topTags[Math.floor(random() * topTags.length)]}` });
    else add({ q: `${base} in ${places[Math.floor(random() * places.length)]}` });
  }
  if (out.length < size) throw new Error(`the mix found only ${out.length} distinct texts of ${size}`);
  return out;
}

/** A title as a query: collapsed spaces, at most ten words and 120 characters; null when it holds no letter. */
function cleanTitle(title: string | null): string | null {
  const words = (title ?? "").replace(/\s+/g, " ").trim().split(" ").slice(0, 10);
  const q = words.join(" ").slice(0, 120).trim();
  return /\p{L}/u.test(q) ? q : null;
}

/** A judged query's own filters (city, country, source, since, until) as the API takes them. */
function wireFilters(j: JudgedQuery): Partial<MixBody> {
  const f = j.filters ?? {};
  return {
    ...(f.city ? { city: f.city } : {}),
    ...(f.country ? { country: f.country } : {}),
    ...(f.source ? { source: f.source } : {}),
    ...(f.since !== undefined ? { since: isoDate(f.since) } : {}),
    ...(f.until !== undefined ? { until: isoDate(f.until) } : {}),
  };
}

function addFilter(body: MixBody, kind: FilterKind, s: MixSource, anchor: number, topTags: string[], random: () => number): void {
  const ts = s.publishTs[anchor]!;
  switch (kind) {
    case "city": if (s.city[anchor]) body.city = s.city[anchor]!; break;
    case "country": if (s.country[anchor]) body.country = s.country[anchor]!; break;
    case "source": body.source = s.source[anchor]!; break;
    case "since": body.since = isoDate(ts - Math.floor(random() * 365) * DAY); break;
    case "until": body.until = isoDate(ts + (1 + Math.floor(random() * 365)) * DAY); break;
    case "remote": body.remote = s.tags[anchor]!.includes("remote"); break;
    case "seniority": body.seniority = [s.seniority[anchor] ?? "senior"]; break;
    case "employment_type": body.employment_type = [s.employmentType[anchor] ?? "FULL_TIME"]; break;
    case "tags": {
      const own = s.tags[anchor]!.filter((tag) => topTags.includes(tag));
      body.tags = own.length > 0 ? own.slice(0, 1 + Math.floor(random() * 2)) : [topTags[Math.floor(random() * 20)]!];
      break;
    }
    case "salary": {
      const usd = s.salaryMaxUsd[anchor] ?? 60_000 + Math.floor(random() * 10) * 10_000;
      const [currency, perUsd] = random() < 0.7 ? ["USD", 1] : random() < 0.5 ? ["EUR", 0.9] : ["GBP", 0.78];
      body.salary_min = Math.round((usd * 0.8 * perUsd) / 1000) * 1000;
      body.salary_currency = currency as string;
      break;
    }
    case "near":
      body.near = PLACES[Math.floor(random() * PLACES.length)]!;
      body.radius_km = [25, 50, 100][Math.floor(random() * 3)]!;
      break;
    case "company": if (s.company[anchor]) body.company = s.company[anchor]!; break;
  }
}

const isoDate = (ts: number) => new Date(ts * 1000).toISOString().slice(0, 10);

function mostCommon(values: string[], n: number): string[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n).map(([value]) => value);
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
