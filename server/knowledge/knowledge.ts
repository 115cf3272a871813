/*
 * The job-domain knowledge base is data: the JSON files beside this loader, read once at start and
 * checked against one schema (schema.ts). Adding an occupation is editing one data file. A knowledge
 * folder holds
 *
 *   fields.json               the fields in the order OCCUPATIONS concatenates them, [{ field, about }];
 *                             every occupations/ file is listed there, and only those
 *   occupations/<field>.json  the field's occupations in order, [{ id, titles, phrases, skills }]
 *   words.json                one key per word list (STOP_WORDS, ALIAS, …) and "about": list → its purpose
 *   places.json               COUNTRIES [{ code, name, aliases? }] in code order, US_STATES [{ code, name }],
 *                             CITY_ALIASES { data city → short forms }, CJK_CITY_NAMES { 杭州 → Hangzhou },
 *                             REGIONS [{ name, aliases?, countries | of | us_states | around + radius_km }],
 *                             and "about": table → its purpose
 *   notions.json              "filters": per filter read from a query's words, every field that carries
 *                             the notion (store/filter.ts): { kind: "boolean", any } or
 *                             { kind: "values", column, values: { value → clauses } }; and "about"
 *   currency-rates.json       { source, date, perEuro: { USD: 1.29, … } }, the salary filters' rates
 *
 * The rules; a violation throws at load, naming the file and the entry:
 *   - ids are kebab-case and unique; a title (case aside) belongs to one occupation
 *   - no empty id, list, map or string, no string with spaces around it, no duplicate within a list,
 *     no unknown key (a misspelt "skils" is an error, not a silently empty list)
 *   - phrases, skills and word-list terms (keys and values alike) are lowercase; titles keep their
 *     case (the first title is the canonical one, displayed as written)
 *   - one phrase (punctuation and spacing aside) claimed by two occupations must be marked in the
 *     "shared_phrases" list of each of them, beside "phrases": a phrase that says nothing to tell the two
 *     apart is a choice, not an accident. A mark names one of the occupation's own phrases that another
 *     occupation really has, else it is an error too. Marks are checks only: OCCUPATIONS omits them.
 *   - country and state codes are two uppercase letters and unique; aliases and city short forms are
 *     lowercase; a name or alias (compared as countries.ts compares names) belongs to one country or
 *     region, a short form to one city; a region is exactly one kind, names known codes, and groups
 *     only regions of countries listed before it
 *   - a notion's clauses are {tag}, {title: regex fragment}, {column, eq} or {column, isNull: true};
 *     fragments compile (alone and as filter.ts wraps them) and match no empty word; columns are
 *     identifiers
 *   - currencies are three uppercase letters with positive finite rates per euro; USD is there, EUR is 1
 *
 * KNOWLEDGE_FINGERPRINT, a short sha256 of the values the ranking sees as canonical JSON (OCCUPATIONS in
 * order and the word lists; not the files' layout, "about" or "shared_phrases"), is recorded where
 * fitted or stored things depend on that knowledge: server/rank/weights.json ("knowledge"), and, for the
 * lists the fold reads, FOLD_LISTS = fingerprintOf({ IRREGULAR, KEEP_E }) beside TEXT_FORMAT in
 * server/text/fold.ts; tests compare both. It leaves out places, notions and rates on purpose: they
 * decide which postings a filter keeps and a posting's stored country, coordinates and USD salary, not
 * how the ranking scores a candidate, so a new city short form or rate must not ask for a refit of the
 * weights. Nothing records them apart either (a table keeps what its ingest read, as before); the
 * evaluation table, which does depend on them, is rebuilt on any change here, since
 * bench/relevance/fingerprint.ts hashes every data file of this folder.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { FIELDS_FILE, FILES, NOTIONS_FILE, OCCUPATIONS_DIR, PLACES_FILE, RATES_FILE, SCHEMA, WORDS_FILE, type Notion } from "./schema.ts";

export type { Notion, NotionClause } from "./schema.ts";

/**
 * One occupation of the job-domain knowledge base, written by hand from domain knowledge (in the spirit
 * of O*NET and ESCO, not copied from them).
 */
export interface Occupation {
  /** Stable kebab-case id, e.g. "site-reliability-engineer". */
  id: string;
  /** The canonical title first, then alternative titles and abbreviations; Chinese titles last. */
  titles: string[];
  /** How people describe the work in plain words ("keep servers running"), lowercase. */
  phrases: string[];
  /** Typical skills and tools, most characteristic first, lowercase. */
  skills: string[];
}

/** A knowledge folder's validated values, under the names the default folder's are exported as. */
export interface Knowledge {
  /** Every occupation, grouped by field in fields.json's order; ids and titles are unique across the whole list. */
  OCCUPATIONS: readonly Occupation[];
  STOP_WORDS: string[];
  FILLER_WORDS: string[];
  ALIAS: Record<string, string>;
  COMPOUNDS: Record<string, string>;
  IT_JOB_WORDS: string[];
  GO_BEFORE: Set<string>;
  GO_AFTER: Set<string>;
  IRREGULAR: Record<string, string>;
  KEEP_E: Set<string>;
  EVERYDAY_WORDS: string[];
  MODIFIER_WORDS: string[];
  GENERIC: string[];
  /** Every country (ISO 3166-1 alpha-2) in code order, with its English name and other names (lowercase). */
  COUNTRIES: readonly Country[];
  /** The 50 states and DC. */
  US_STATES: ReadonlyArray<{ code: string; name: string }>;
  /** A data city's name → the short forms people type ("New York" → nyc, ny …). */
  CITY_ALIASES: Record<string, string[]>;
  /** A Chinese city name as the data writes it → the English name the gazetteer knows. */
  CJK_CITY_NAMES: Record<string, string>;
  /** Places of many cities or countries (continents, groupings, US regions, metro areas), a group of regions made its countries. */
  REGIONS: readonly Region[];
  /** A filter read from a query's words (by its name in shared/search-params.ts) → every field that carries it. */
  NOTIONS: Record<string, Notion>;
  /** The salary filters' exchange rates: units of each currency per euro, with their source and date. */
  CURRENCY_RATES: { source: string; date: string; perEuro: Record<string, number> };
  /** A short sha256 of OCCUPATIONS and the word lists as canonical JSON: changes with any content the ranking sees. */
  fingerprint: string;
}

/** A region: its countries, the data's US cities in its states, or the data's cities within radiusKm of a place. */
export type Region = { name: string; aliases: string[] } & (
  | { countries: string[] }
  | { usStates: string[] }
  | { around: string; radiusKm: number }
);

export interface Country {
  /** ISO 3166-1 alpha-2, uppercase. */
  code: string;
  /** CLDR's English short name ("Türkiye", "Bosnia & Herzegovina"). */
  name: string;
  /** Other names people and job boards use, lowercase, in the file's order (none: []). */
  aliases: string[];
}

/**
 * Reads and checks the knowledge in `dir` (synchronously, once per call). Throws one error listing
 * every violation as "file › entry › field: problem".
 */
export function loadKnowledge(dir: string): Knowledge {
  const input: Record<string, unknown> = Object.fromEntries(FILES.map((file) => [file, readJson(dir, file)]));
  for (const name of readdirSync(join(dir, OCCUPATIONS_DIR)).sort()) {
    if (name.endsWith(".json")) input[`${OCCUPATIONS_DIR}/${name}`] = readJson(dir, `${OCCUPATIONS_DIR}/${name}`);
  }
  const parsed = SCHEMA.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  - ${describe(dir, input, issue)}`);
    throw new Error(`the knowledge in ${dir} is invalid (${problems.length} problem${problems.length > 1 ? "s" : ""}):\n${problems.join("\n")}`);
  }
  const { [FIELDS_FILE]: fields, [WORDS_FILE]: words, [PLACES_FILE]: places, [NOTIONS_FILE]: notions, [RATES_FILE]: rates } = parsed.data;
  const occupations: Occupation[] = fields.fields.flatMap(({ field }) =>
    parsed.data[`${OCCUPATIONS_DIR}/${field}.json`]!.map(({ id, titles, phrases, skills }) => ({ id, titles, phrases, skills })),
  );
  const { about: _, ...lists } = words;
  return {
    ...lists,
    // Looked up by any word a posting or a query holds: "constructor" must not find Object's own.
    ALIAS: lookup(lists.ALIAS),
    COMPOUNDS: lookup(lists.COMPOUNDS),
    IRREGULAR: lookup(lists.IRREGULAR),
    OCCUPATIONS: occupations,
    GO_BEFORE: new Set(lists.GO_BEFORE),
    GO_AFTER: new Set(lists.GO_AFTER),
    KEEP_E: new Set(lists.KEEP_E),
    COUNTRIES: places.COUNTRIES.map(({ code, name, aliases }) => ({ code, name, aliases: aliases ?? [] })),
    US_STATES: places.US_STATES,
    CITY_ALIASES: lookup(places.CITY_ALIASES),
    CJK_CITY_NAMES: lookup(places.CJK_CITY_NAMES),
    REGIONS: regions(places.REGIONS),
    NOTIONS: notions.filters,
    CURRENCY_RATES: rates,
    // The occupations are built above with one key order, so plain JSON is canonical for them (and 5× faster).
    fingerprint: sha256(`${JSON.stringify(occupations)}\n${canonicalJson(lists)}`),
  };
}

/** The regions as places/ reads them: a group of regions ("of") becomes the union of their countries, in order. */
function regions(entries: z.infer<typeof SCHEMA>[typeof PLACES_FILE]["REGIONS"]): Region[] {
  const countries = new Map<string, string[]>();
  return entries.map(({ name, aliases = [], ...place }): Region => {
    if (place.around !== undefined) return { name, aliases, around: place.around, radiusKm: place.radius_km! };
    if (place.us_states !== undefined) return { name, aliases, usStates: place.us_states };
    const codes = place.countries ?? [...new Set(place.of!.flatMap((other) => countries.get(other) ?? []))];
    countries.set(name, codes);
    return { name, aliases, countries: codes };
  });
}

/** A record without a prototype, so that a key such as "constructor" or "toString" finds only the data. */
function lookup<T>(record: Record<string, T>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, record);
}

/**
 * A short sha256 (16 hex digits) of `value` as canonical JSON: object keys sorted, Sets as arrays in
 * their order, arrays in theirs. The same content gives the same fingerprint however the files are laid out.
 */
export function fingerprintOf(value: unknown): string {
  return sha256(canonicalJson(value));
}

function sha256(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex").slice(0, 16);
}

function canonicalJson(value: unknown): string {
  if (value instanceof Set) value = [...value];
  if (Array.isArray(value)) {
    // A list of strings is already canonical (and most of the knowledge): one call, not one per string.
    return value.every((item) => typeof item === "string") ? JSON.stringify(value) : `[${value.map(canonicalJson).join(",")}]`;
  }
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(",")}}`;
}

// --- reading and reporting ---

function readJson(dir: string, file: string): unknown {
  const path = join(dir, file);
  let source: string;
  try {
    source = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(`the knowledge in ${dir} is incomplete: cannot read ${path} (${(error as Error).message})`);
  }
  try {
    return JSON.parse(source);
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

/** "dir/occupations/software.json › entry 3 (id "frontend-developer") › skills[2] "React": must be lowercase". */
function describe(dir: string, input: Record<string, unknown>, issue: z.core.$ZodIssue): string {
  const [file, ...rest] = issue.path.map((step) => (typeof step === "number" ? step : String(step)));
  const parts = [join(dir, String(file))];
  let value: unknown = input[String(file)];
  let field = "";
  rest.forEach((step, n) => {
    value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[step] : undefined;
    if (String(file).startsWith(`${OCCUPATIONS_DIR}/`) && n === 0) {
      const id = (value as { id?: unknown } | undefined)?.id;
      parts.push(`entry ${step}${typeof id === "string" ? ` (id "${id}")` : ""}`);
    } else field += typeof step === "number" ? `[${step}]` : field === "" ? step : `.${step}`;
  });
  const shown = [field, typeof value === "string" ? JSON.stringify(value) : ""].filter(Boolean).join(" ");
  if (shown !== "") parts.push(shown);
  return `${parts.join(" › ")}: ${issue.message}`;
}

// --- the default knowledge: the files beside this loader ---

export const KNOWLEDGE_DIR = import.meta.dir;
const KNOWLEDGE = loadKnowledge(KNOWLEDGE_DIR);

export const { OCCUPATIONS, STOP_WORDS, FILLER_WORDS, ALIAS, COMPOUNDS, IT_JOB_WORDS, GO_BEFORE, GO_AFTER } = KNOWLEDGE;
export const { IRREGULAR, KEEP_E, EVERYDAY_WORDS, MODIFIER_WORDS, GENERIC } = KNOWLEDGE;
export const { COUNTRIES, US_STATES, CITY_ALIASES, CJK_CITY_NAMES, REGIONS, NOTIONS, CURRENCY_RATES } = KNOWLEDGE;
/** The default knowledge's fingerprint (OCCUPATIONS and the word lists); server/rank/weights.json records the one it was fitted on. */
export const KNOWLEDGE_FINGERPRINT = KNOWLEDGE.fingerprint;
