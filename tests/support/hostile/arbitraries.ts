/**
 * What the hostile-input properties send (fast-check arbitraries: random strings, huge numbers, wrong
 * types, unicode edge cases, very long values) and the postings they search: the fixtures plus one
 * posting per city a naive filter would confuse. The seed is fixed (SEED) and printed with any failure.
 */
import fc from "fast-check";
import { fixturePostings, type FixturePosting } from "../fixtures/postings.ts";

export const SEED = 20_261_122;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const MCP_ACCEPT = "application/json, text/event-stream";
export const PARAMS = ["q", "query", "city", "country", "since", "until", "source", "top_k", "offset", "detail", "min_score", "sort", "collapse", "explain"];
/** Bun answers a request line plus headers over 16 KiB with a bare 431 before any route runs (documented). */
export const HEADER_LIMIT = 16 * 1024;
/** The URL as sent: the WHATWG parser percent-encodes more than encodeURIComponent (e.g. `'` in a query). */
export const wireLength = (url: string) => new URL(url).href.length;

/** Cities a naive filter would confuse with each other or with SQL: each gets one posting beside the fixtures. */
const HOSTILE_CITIES = [
  "a' OR 'x'='x", "O''Hare", "Back\\slash", "Back\\\\slash", "100%", "_", "%' --", "Berlin ", "berlin", "BERLIN",
  "Zu\u0308rich", "\u202EnilreB", "\u200FBerlin", "\"; DROP TABLE jobs; --", "東京🏙️", "`city`", "NULL", "Berlin\tMitte",
];
export const postings = [...fixturePostings(), ...hostilePostings()];
export const byUrl = new Map(postings.map((p) => [p.job_url, p]));
export const CITIES = [...new Set(postings.map((p) => p.city).filter((c): c is string => c !== null))];

// --- arbitraries ---

const EDGE_STRINGS = [
  "", " ", "\u0000", "a\u0000b", "\uD800", "\uDFFF", "x\uDBFF", "\uDC00x", "\u200F", "\u202E", "\u200B", "\uFEFF", "e\u0301",
  "\u0301", "👩‍👩‍👧‍👦", "🏳️‍🌈", "\uFFFF", "\u{10FFFF}", "\r\n", "\t", "\\", "\\'", "'", "''", "\"", "%", "_", "*",
  "' OR '1'='1", "') OR ('1'='1", "x' OR 1=1 --", "1; DROP TABLE jobs", "city = city", "NULL", "true", "<script>alert(1)</script>",
  "${x}", "../../etc/passwd", "%00", "%ZZ", "2026-03-01' OR '1'='1", "前端工程师", "مهندس", "🙂".repeat(600),
];
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...EDGE_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), loneSurrogate, fc.string({ maxLength: 10 })).map((p) => p.join("")) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 5000 }).chain((n) => fc.constantFrom("x".repeat(n), "é".repeat(n), "'".repeat(n), "😀".repeat(n >> 1))) },
);
/** A marker JSON.stringify keeps as a string; `toJson` turns it into a bare number literal such as 1e999. */
const RAW = "\u0001raw:";
export const hugeNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 2, -(2 ** 63), 1e21, 0.5, -0, Number.MIN_VALUE),
  fc.constantFrom("1e999", "-1e999", "123456789012345678901234567890", "1e-400", "0.1e1", "1E2", "-0.0").map((n) => RAW + n),
);
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(), fc.double(), hugeNumber, fc.boolean(), fc.constant(null),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  fc.integer({ min: 1, max: 2000 }).map((depth) => nest(depth)),
);
export const anyValue = fc.oneof({ weight: 3, arbitrary: hostileString }, { weight: 2, arbitrary: wrongType });

const knownCity = fc.constantFrom(...CITIES);
const cityLike = knownCity.chain((city) =>
  fc.constantFrom(
    city, `${city} `, ` ${city}`, city.toUpperCase(), city.toLowerCase(), `${city}'`, `${city}\\`, `${city}%`, `${city}_`,
    `${city}' OR '1'='1`, `${city}' --`, city.normalize("NFD"), city.normalize("NFC"), `${city}\u0000`, `\u200F${city}`, `${city}\u0301`,
    city.replaceAll("'", "''"), city.replaceAll("''", "'"), city.replaceAll("\\", "\\\\"),
  ),
);
const dateLike = fc.oneof(
  fc.date({ min: new Date("2026-02-27T00:00:00Z"), max: new Date("2026-03-04T00:00:00Z"), noInvalidDate: true })
    .chain((d) => fc.constantFrom(d.toISOString().slice(0, 10), d.toISOString().slice(0, 19).replace("T", " "))),
  fc.constantFrom("2026-02-30", "2026-13-01", "9999-99-99", "2026-03-01T00:00:00", "2026-03-01 24:00:00", "0000-00-00", "2026-3-1", "+2026-03-01", "2026-03-01 00:00:00Z"),
);
/** Search parameters: mostly plausible values (so searches run and filters are exercised), often hostile ones. */
export const searchParams = (queryField: "q" | "query") =>
  fc.record(
    {
      [queryField]: fc.oneof({ weight: 4, arbitrary: fc.constantFrom("nurse", "python backend engineer", "前端工程师", "swift ios") }, { weight: 3, arbitrary: anyValue }),
      city: fc.oneof({ weight: 3, arbitrary: cityLike }, { weight: 2, arbitrary: anyValue }),
      country: fc.oneof(fc.constantFrom("US", "DE", "GB", "CH", "CN", "us", "U", "USA", "' OR 1=1", "U\u0000"), anyValue),
      since: fc.oneof({ weight: 2, arbitrary: dateLike }, { weight: 1, arbitrary: anyValue }),
      until: fc.oneof({ weight: 2, arbitrary: dateLike }, { weight: 1, arbitrary: anyValue }),
      source: fc.oneof(fc.constantFrom("indeed", "linkedin", "Indeed", "indeed ", "indeed' OR '1'='1", "linkedin\u0000"), anyValue),
      top_k: fc.oneof(fc.integer({ min: -1000, max: 1000 }), hugeNumber, fc.constantFrom("5", "1.5", "0x10", "1e2", " 7 "), anyValue),
      offset: fc.oneof(fc.integer({ min: -10, max: 20_000 }), hugeNumber, fc.constantFrom("3", "-1", "1.0"), anyValue),
      detail: fc.oneof(fc.constantFrom("summary", "full", "FULL", "full "), anyValue),
      min_score: fc.oneof(fc.double({ min: -1, max: 2 }), fc.constantFrom("0.5", "1", "-0", ".5", "NaN", "Infinity"), anyValue),
      sort: fc.oneof(fc.constantFrom("date", "relevance", "score"), anyValue),
      collapse: fc.oneof(fc.boolean(), fc.constantFrom("true", "false", "1", "yes"), anyValue),
      explain: fc.oneof(fc.boolean(), fc.constantFrom("true", "false", "0"), anyValue),
      extra: anyValue,
    },
    { requiredKeys: [] },
  );
/** A time `hours` before (negative: after) a posting's publish time, in either accepted form. */
const around = (publishTime: string, hours: number, dateOnly: boolean) => {
  const iso = new Date(Date.parse(`${publishTime.replace(" ", "T")}Z`) - hours * 3_600_000).toISOString();
  return dateOnly ? iso.slice(0, 10) : iso.slice(0, 19).replace("T", " ");
};
/**
 * Parameters every one of which is valid (the search must answer 200), aimed at one posting so that
 * filters usually match something: its own city (or a look-alike), country, source and a window around
 * its publish time. `extra` is an unknown field, ignored.
 */
const validParams = (queryField: "q" | "query") =>
  fc.constantFrom(...postings).chain((target) =>
    fc.record(
      {
        [queryField]: fc.oneof(
          fc.constantFrom("nurse", "python backend engineer", "前端工程师", "swift ios", "'", "\\", "%", "x' OR 1=1 --", "\u0000", "e\u0301"),
          fc.string({ unit: "grapheme", minLength: 1, maxLength: 80 }).filter((q) => q.trim() !== ""),
        ),
        city: fc.oneof({ weight: 3, arbitrary: fc.constant(target.city ?? "Berlin") }, { weight: 1, arbitrary: cityLike }),
        country: fc.oneof({ weight: 3, arbitrary: fc.constant(target.country ?? "US") }, { weight: 1, arbitrary: fc.constantFrom("US", "DE", "GB", "CH", "CN") }),
        since: fc.tuple(fc.integer({ min: -2, max: 30 }), fc.boolean()).map(([hours, dateOnly]) => around(target.publish_time, hours, dateOnly)),
        until: fc.tuple(fc.integer({ min: -30, max: 2 }), fc.boolean()).map(([hours, dateOnly]) => around(target.publish_time, hours - 24 * Number(dateOnly), dateOnly)),
        source: fc.oneof({ weight: 3, arbitrary: fc.constant(target.data_source) }, { weight: 1, arbitrary: fc.constantFrom("indeed", "linkedin") }),
        top_k: fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(1e21, 2 ** 53 + 2, -(2 ** 63))),
        offset: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 60 }) }),
        detail: fc.constantFrom("summary", "full"),
        min_score: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 100 }).map((n) => n / 100) }),
        sort: fc.constantFrom("date", "relevance"),
        collapse: fc.boolean(),
        explain: fc.boolean(),
        extra: anyValue,
      },
      { requiredKeys: [queryField] },
    ),
  );
/** A third valid (must be 200), a third valid but for one hostile parameter, a third hostile throughout. */
export const searchCase = (queryField: "q" | "query") =>
  fc.oneof(
    validParams(queryField).map((params) => ({ params: params as Record<string, unknown>, valid: true })),
    fc.tuple(validParams(queryField), fc.constantFrom(...PARAMS.filter((p) => p !== (queryField === "q" ? "query" : "q"))), anyValue)
      .map(([params, key, value]) => ({ params: { ...params, [key]: value } as Record<string, unknown>, valid: false })),
    searchParams(queryField).map((params) => ({ params: params as Record<string, unknown>, valid: false })),
  );
export const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });

// --- values ---

/** One extra posting per hostile city, cycling through the fixture roles, an hour apart. */
function hostilePostings(): FixturePosting[] {
  const base = fixturePostings();
  return HOSTILE_CITIES.map((city, i) => ({
    ...base[i % 6]!,
    id: `hx-${i}`,
    city,
    country: i % 2 === 0 ? "US" : "DE",
    company_name: `Hostile ${i}`,
    data_source: i % 3 === 0 ? "linkedin" : "indeed",
    publish_time: new Date(Date.UTC(2026, 2, 3, 0, 0, 0) + i * 3_600_000).toISOString().slice(0, 19).replace("T", " "),
    job_url: `https://jobs.example.com/hostile/${i}`,
  }));
}

export function nest(depth: number): unknown {
  let value: unknown = "x";
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

/** JSON with the raw-number markers turned into bare literals (1e999, 30-digit integers …). */
export function toJson(value: unknown): string {
  return (JSON.stringify(value) ?? "null").replace(/"\\u0001raw:([^"]*)"/g, "$1");
}

/** Percent-encodes like encodeURIComponent, but a lone surrogate becomes its (invalid) UTF-8-style bytes instead of throwing. */
export function encodeLoose(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out += code >= 0xd800 && code <= 0xdfff
      ? `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`
      : encodeURIComponent(char);
  }
  return out;
}

/** A generated value as query-string text: integers in digits (1e21 too), raw-number markers as their literal. */
export function asQueryText(value: unknown): string {
  if (typeof value === "string") return value.startsWith(RAW) ? value.slice(RAW.length) : value;
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value).toString() : String(value);
  if (typeof value === "boolean") return String(value);
  return JSON.stringify(value) ?? "";
}

export function fieldOf(posting: FixturePosting, name: string): unknown {
  return name === "source" ? posting.data_source : posting[name as keyof FixturePosting];
}
