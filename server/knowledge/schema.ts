import { z } from "zod";

/*
 * The schema of a knowledge folder, one zod value for all its files (knowledge.ts reads them and
 * states the rules in its header). An issue's path starts with the file it is about.
 */

export const FIELDS_FILE = "fields.json";
export const WORDS_FILE = "words.json";
export const PLACES_FILE = "places.json";
export const NOTIONS_FILE = "notions.json";
export const RATES_FILE = "currency-rates.json";
export const OCCUPATIONS_DIR = "occupations";
/** The folder's files besides occupations/, in the order they are read. */
export const FILES = [FIELDS_FILE, WORDS_FILE, PLACES_FILE, NOTIONS_FILE, RATES_FILE];

/** One field of a notion (notions.json): a tag, whole words of the title (a regex fragment) or a column's value. */
export type NotionClause = { tag: string } | { title: string } | { column: string; eq: string } | { column: string; isNull: true };
/** What a filter read from a query means: a boolean notion holds when any clause does (false negates); a "values" one per value. */
export type Notion = { kind: "boolean"; any: NotionClause[] } | { kind: "values"; column: string; values: Record<string, NotionClause[]> };

/** What is wrong with one string of the knowledge, if anything. */
function stringProblem(value: string, lowercase: boolean): string | undefined {
  if (value === "") return "is empty";
  if (value.trim() !== value) return "has spaces around it";
  if (lowercase && value !== value.toLowerCase()) return "must be lowercase (only titles keep their case)";
  return undefined;
}

/** A string, checked by stringProblem: one refinement, not a chain (every start checks ~9,000 strings). */
const text = z.string().superRefine((value, ctx) => {
  const problem = stringProblem(value, false);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
const lowerText = z.string().superRefine((value, ctx) => {
  const problem = stringProblem(value, true);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
const kebab = text.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be kebab-case ("site-reliability-engineer")');

/** A non-empty list of distinct strings, each non-empty, trimmed and (with `lowercase`) lowercase. */
const list = (lowercase: boolean) =>
  z.array(z.string()).superRefine((items, ctx) => {
    if (items.length === 0) ctx.addIssue({ code: "custom", message: "is empty" });
    items.forEach((value, i) => {
      const first = items.indexOf(value);
      const problem = stringProblem(value, lowercase) ?? (first === i ? undefined : `is a duplicate of [${first}]`);
      if (problem) ctx.addIssue({ code: "custom", path: [i], message: problem });
    });
  });
/** A non-empty map whose keys are non-empty and trimmed (and with `lowercase`, lowercase), to values of `value`. */
const keyed = <T extends z.ZodType>(value: T, lowercase: boolean) =>
  z.record(z.string(), value).superRefine((record, ctx) => {
    if (Object.keys(record).length === 0) ctx.addIssue({ code: "custom", message: "is empty" });
    for (const key of Object.keys(record)) {
      const problem = stringProblem(key, lowercase);
      if (problem) ctx.addIssue({ code: "custom", message: `key ${JSON.stringify(key)} ${problem}` });
    }
  });
/** A non-empty map of lowercase strings to lowercase strings. */
const map = keyed(lowerText, true);

const LISTS = {
  STOP_WORDS: list(true),
  FILLER_WORDS: list(true),
  ALIAS: map,
  COMPOUNDS: map,
  IT_JOB_WORDS: list(true),
  GO_BEFORE: list(true),
  GO_AFTER: list(true),
  IRREGULAR: map,
  KEEP_E: list(true),
  EVERYDAY_WORDS: list(true),
  MODIFIER_WORDS: list(true),
  GENERIC: list(true),
};
/** An "about" object: one description per key. */
const about = (keys: string[]) => z.strictObject(Object.fromEntries(keys.map((name) => [name, text])) as Record<string, typeof text>);

const OCCUPATION = z.strictObject({
  id: kebab,
  titles: list(false),
  phrases: list(true),
  shared_phrases: list(true).optional(),
  skills: list(true),
});
type Entry = z.infer<typeof OCCUPATION>;

// --- places.json ---

const CODE = text.regex(/^[A-Z]{2}$/, "must be two uppercase letters");
const COUNTRY = z.strictObject({ code: CODE, name: text, aliases: list(true).optional() });
const STATE = z.strictObject({ code: CODE, name: text });
/** A place of many cities or countries: exactly one of countries, of (other regions), us_states, or around with radius_km. */
const REGION = z
  .strictObject({
    name: text,
    aliases: list(true).optional(),
    countries: z.array(CODE).min(1, "is empty").optional(),
    of: list(false).optional(),
    us_states: z.array(CODE).min(1, "is empty").optional(),
    around: text.optional(),
    radius_km: z.number().positive().max(1000).optional(),
  })
  .superRefine((region, ctx) => {
    const kinds = (["countries", "of", "us_states", "around"] as const).filter((kind) => region[kind] !== undefined);
    if (kinds.length !== 1) ctx.addIssue({ code: "custom", message: `needs exactly one of countries, of, us_states, around (has ${kinds.join(", ") || "none"})` });
    if ((region.around === undefined) !== (region.radius_km === undefined)) ctx.addIssue({ code: "custom", message: "around and radius_km go together" });
  });
const PLACES_SHAPE = z
  .strictObject({
    about: about(["COUNTRIES", "US_STATES", "CITY_ALIASES", "CJK_CITY_NAMES", "REGIONS"]),
    COUNTRIES: z.array(COUNTRY).min(1, "is empty"),
    US_STATES: z.array(STATE).min(1, "is empty"),
    CITY_ALIASES: keyed(list(true), false),
    CJK_CITY_NAMES: keyed(text, false),
    REGIONS: z.array(REGION),
  })
  .superRefine((places, ctx) => {
    const issue = (path: PropertyKey[], message: string) => ctx.addIssue({ code: "custom", path, message });
    for (const table of ["COUNTRIES", "US_STATES"] as const) {
      const codes = places[table].map((entry) => entry.code);
      codes.forEach((c, i) => codes.indexOf(c) !== i && issue([table, i, "code"], `is also the code of ${table}[${codes.indexOf(c)}]`));
    }
    const states = places.US_STATES.map((state) => placeKey(state.name));
    states.forEach((n, i) => states.indexOf(n) !== i && issue(["US_STATES", i, "name"], `is also the name of US_STATES[${states.indexOf(n)}]`));
    // A name or alias names one country, a short form one city: each claimant of a shared one is reported.
    const claims = new Map<string, Array<{ owner: string; path: PropertyKey[]; what: string }>>();
    const claim = (table: string, value: string, owner: string, path: PropertyKey[], what: string) => {
      const key = `${table} ${placeKey(value)}`;
      claims.set(key, [...(claims.get(key) ?? []), { owner, path, what }]);
    };
    places.COUNTRIES.forEach(({ code, name, aliases }, i) => {
      claim("countries", name, code, ["COUNTRIES", i, "name"], `the name of ${code} (COUNTRIES[${i}])`);
      aliases?.forEach((alias, k) => claim("countries", alias, code, ["COUNTRIES", i, "aliases", k], `an alias of ${code} (COUNTRIES[${i}])`));
    });
    for (const [city, aliases] of Object.entries(places.CITY_ALIASES)) {
      aliases.forEach((alias, k) => claim("cities", alias, city, ["CITY_ALIASES", city, k], `a short form of ${JSON.stringify(city)}`));
    }
    // A region's names share the countries' (a name means one country or one region).
    const countryCodes = new Set(places.COUNTRIES.map(({ code }) => code));
    const stateCodes = new Set(places.US_STATES.map(({ code }) => code));
    const earlier = new Map<string, boolean>();
    places.REGIONS.forEach((region, i) => {
      claim("countries", region.name, `region ${region.name}`, ["REGIONS", i, "name"], `the name of REGIONS[${i}]`);
      region.aliases?.forEach((alias, k) => claim("countries", alias, `region ${region.name}`, ["REGIONS", i, "aliases", k], `an alias of REGIONS[${i}]`));
      region.countries?.forEach((code, k) => !countryCodes.has(code) && issue(["REGIONS", i, "countries", k], "is no country of COUNTRIES"));
      region.us_states?.forEach((code, k) => !stateCodes.has(code) && issue(["REGIONS", i, "us_states", k], "is no state of US_STATES"));
      region.of?.forEach((name, k) => !earlier.get(name) && issue(["REGIONS", i, "of", k], "is no region of countries listed before this one"));
      earlier.set(region.name, region.countries !== undefined || region.of !== undefined);
    });
    for (const claimants of claims.values()) {
      for (const { owner, path } of claimants) {
        const others = new Set(claimants.filter((other) => other.owner !== owner).map((other) => other.what));
        if (others.size > 0) issue(path, `is also ${[...others].join(", ")}`);
      }
    }
  });

/** Names are the same claim when only case or spacing differ; places/countries.ts holds them to its own comparison at start. */
function placeKey(name: string): string {
  return name.toLowerCase().replace(/\s+/g, " ").trim();
}

// --- notions.json ---

const column = z.string().regex(/^[a-z][a-z0-9_]*$/, "must be a column name (lowercase letters, digits and _)");
/** A fragment of a regular expression that compiles alone and as filter.ts wraps it, and matches no empty word. */
const fragment = text.superRefine((value, ctx) => {
  try {
    new RegExp(value, "u");
    new RegExp(`(?<![\\p{L}\\p{N}_])(?:${value})(?![\\p{L}\\p{N}_])`, "iu");
  } catch (error) {
    return ctx.addIssue({ code: "custom", message: `is not a regular expression: ${(error as Error).message}` });
  }
  if (new RegExp(`^(?:${value})$`, "u").test("")) ctx.addIssue({ code: "custom", message: "matches the empty string, so every title" });
});
const CLAUSES: Record<string, z.ZodType> = {
  tag: z.strictObject({ tag: lowerText }),
  title: z.strictObject({ title: fragment }),
  "column eq": z.strictObject({ column, eq: text }),
  "column isNull": z.strictObject({ column, isNull: z.literal(true, "must be true") }),
};
const CLAUSE = z.record(z.string(), z.unknown()).superRefine((clause, ctx) => {
  const shape = CLAUSES[Object.keys(clause).sort().join(" ")];
  if (shape === undefined) return ctx.addIssue({ code: "custom", message: "is not a known clause: {tag}, {title}, {column, eq} or {column, isNull: true}" });
  for (const { path, message } of shape.safeParse(clause).error?.issues ?? []) ctx.addIssue({ code: "custom", path, message });
}) as unknown as z.ZodType<NotionClause>;
const clauses = z.array(CLAUSE).min(1, "is empty");
const NOTION = z.discriminatedUnion(
  "kind",
  [z.strictObject({ kind: z.literal("boolean"), any: clauses }), z.strictObject({ kind: z.literal("values"), column, values: keyed(clauses, false) })],
  { error: 'is not a notion: "kind" is "boolean" or "values"' },
);
const NOTIONS_SHAPE = z.strictObject({ about: text, filters: keyed(NOTION, true) });

// --- currency-rates.json ---

const RATES_SHAPE = z.strictObject({
  source: text,
  date: text.regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date, YYYY-MM-DD"),
  perEuro: z.record(z.string(), z.unknown()).superRefine((rates, ctx) => {
    if (!Object.hasOwn(rates, "USD")) ctx.addIssue({ code: "custom", message: "lacks USD, which every conversion goes through" });
    for (const [currency, rate] of Object.entries(rates)) {
      if (!/^[A-Z]{3}$/.test(currency)) ctx.addIssue({ code: "custom", message: `key ${JSON.stringify(currency)} must be three uppercase letters` });
      if (typeof rate !== "number" || !Number.isFinite(rate) || rate <= 0) ctx.addIssue({ code: "custom", path: [currency], message: "must be a positive finite number" });
      else if (currency === "EUR" && rate !== 1) ctx.addIssue({ code: "custom", path: [currency], message: "must be 1 (rates are per euro)" });
    }
  }) as unknown as z.ZodType<Record<string, number>>,
});

/** The whole folder as one value: file path (relative to the folder) → its content, so an issue's path starts with its file. */
export const SCHEMA = z
  .object({
    [FIELDS_FILE]: z.strictObject({ about: text, fields: z.array(z.strictObject({ field: kebab, about: text })).min(1, "is empty") }),
    [WORDS_FILE]: z.strictObject({ about: about(Object.keys(LISTS)), ...LISTS }),
    [PLACES_FILE]: PLACES_SHAPE,
    [NOTIONS_FILE]: NOTIONS_SHAPE,
    [RATES_FILE]: RATES_SHAPE,
  })
  .catchall(z.array(OCCUPATION))
  .superRefine((folder, ctx) => {
    const issue = (path: PropertyKey[], message: string) => ctx.addIssue({ code: "custom", path, message });
    const files = folder[FIELDS_FILE].fields.map(({ field }) => `${OCCUPATIONS_DIR}/${field}.json`);
    files.forEach((file, i) => {
      if (files.indexOf(file) !== i) issue([FIELDS_FILE, "fields", i, "field"], `is a duplicate of fields[${files.indexOf(file)}]`);
      else if (!(file in folder)) issue([FIELDS_FILE, "fields", i, "field"], `names ${file}, which does not exist`);
    });
    for (const file of Object.keys(folder)) {
      if (file.startsWith(`${OCCUPATIONS_DIR}/`) && !files.includes(file)) issue([file], `is not listed in ${FIELDS_FILE}`);
    }
    const entries = [...new Set(files)].flatMap((file) => ((folder[file] as Entry[] | undefined) ?? []).map((entry, i) => ({ file, i, entry })));
    const where = ({ file, entry }: { file: string; entry: Entry }) => `"${entry.id}" (${file})`;
    const ids = new Map<string, (typeof entries)[number]>();
    const titles = new Map<string, (typeof entries)[number]>();
    const claims = new Map<string, Array<{ at: (typeof entries)[number]; k: number }>>();
    for (const at of entries) {
      const { file, i, entry } = at;
      const sameId = ids.get(entry.id);
      if (sameId) issue([file, i, "id"], `is also the id of entry ${sameId.i} in ${sameId.file}`);
      else ids.set(entry.id, at);
      entry.titles.forEach((title, k) => {
        const other = titles.get(title.toLowerCase());
        if (other && other.entry !== entry) issue([file, i, "titles", k], `is also a title of ${where(other)}`);
        else titles.set(title.toLowerCase(), at);
      });
      entry.phrases.forEach((phrase, k) => {
        const key = phraseKey(phrase);
        const claimants = claims.get(key);
        if (claimants) claimants.push({ at, k });
        else claims.set(key, [{ at, k }]);
      });
    }
    const owners = (key: string) => new Set(claims.get(key)!.map((c) => c.at.entry)).size;
    for (const [key, claimants] of claims) {
      if (claimants.length < 2 || owners(key) < 2) continue;
      for (const { at, k } of claimants) {
        if (at.entry.shared_phrases?.includes(at.entry.phrases[k]!)) continue;
        const others = claimants.filter((o) => o.at.entry !== at.entry).map((o) => where(o.at));
        issue([at.file, at.i, "phrases", k], `is also a phrase of ${others.join(", ")}: reword it, or list it in "shared_phrases" of each`);
      }
    }
    for (const { file, i, entry } of entries) {
      entry.shared_phrases?.forEach((phrase, k) => {
        if (!entry.phrases.includes(phrase)) issue([file, i, "shared_phrases", k], `is not one of the occupation's "phrases"`);
        else if (owners(phraseKey(phrase)) < 2) {
          issue([file, i, "shared_phrases", k], "is a phrase of no other occupation: remove the mark");
        }
      });
    }
  });

/** Phrases are the same claim when only punctuation and spacing differ ("build web-sites", "build web sites"). */
function phraseKey(phrase: string): string {
  return phrase.replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}
