/*
 * The job-domain knowledge base is data: the JSON files beside this loader, read once at start and
 * checked against one schema. Adding an occupation is editing one data file. A knowledge folder holds
 *
 *   fields.json               the fields in the order OCCUPATIONS concatenates them, [{ field, about }];
 *                             every occupations/ file is listed there, and only those
 *   occupations/<field>.json  the field's occupations in order, [{ id, titles, phrases, skills }]
 *   words.json                one key per word list (STOP_WORDS, ALIAS, …) and "about": list → its purpose
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
 *
 * KNOWLEDGE_FINGERPRINT, a short sha256 of the values the code sees as canonical JSON (OCCUPATIONS in
 * order and the word lists; not the files' layout, "about" or "shared_phrases"), is recorded where
 * fitted or stored things depend on the knowledge: ranking-weights.json ("knowledge"), and, for the
 * lists the fold reads, FOLD_LISTS = fingerprintOf({ IRREGULAR, KEEP_E }) beside TEXT_FORMAT in
 * server/relevance/text.ts; tests compare both. bench/relevance/fingerprint.ts hashes these files too.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

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
  /** A short sha256 of OCCUPATIONS and the word lists as canonical JSON: changes with any content the code sees. */
  fingerprint: string;
}

/**
 * Reads and checks the knowledge in `dir` (synchronously, once per call). Throws one error listing
 * every violation as "file › entry › field: problem".
 */
export function loadKnowledge(dir: string): Knowledge {
  const input: Record<string, unknown> = { [FIELDS]: readJson(dir, FIELDS), [WORDS]: readJson(dir, WORDS) };
  for (const name of readdirSync(join(dir, OCCUPATIONS_DIR)).sort()) {
    if (name.endsWith(".json")) input[`${OCCUPATIONS_DIR}/${name}`] = readJson(dir, `${OCCUPATIONS_DIR}/${name}`);
  }
  const parsed = SCHEMA.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  - ${describe(dir, input, issue)}`);
    throw new Error(`the knowledge in ${dir} is invalid (${problems.length} problem${problems.length > 1 ? "s" : ""}):\n${problems.join("\n")}`);
  }
  const { [FIELDS]: fields, [WORDS]: words } = parsed.data;
  const occupations: Occupation[] = fields.fields.flatMap(({ field }) =>
    parsed.data[`${OCCUPATIONS_DIR}/${field}.json`]!.map(({ id, titles, phrases, skills }) => ({ id, titles, phrases, skills })),
  );
  const { about: _, ...lists } = words;
  return {
    ...lists,
    OCCUPATIONS: occupations,
    GO_BEFORE: new Set(lists.GO_BEFORE),
    GO_AFTER: new Set(lists.GO_AFTER),
    KEEP_E: new Set(lists.KEEP_E),
    // The occupations are built above with one key order, so plain JSON is canonical for them (and 5× faster).
    fingerprint: sha256(`${JSON.stringify(occupations)}\n${canonicalJson(lists)}`),
  };
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

// --- the schema ---

const FIELDS = "fields.json";
const WORDS = "words.json";
const OCCUPATIONS_DIR = "occupations";

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
/** A non-empty map of lowercase strings to lowercase strings. */
const map = z.record(z.string(), z.string()).superRefine((record, ctx) => {
  if (Object.keys(record).length === 0) ctx.addIssue({ code: "custom", message: "is empty" });
  for (const [key, value] of Object.entries(record)) {
    const keyProblem = stringProblem(key, true);
    if (keyProblem) ctx.addIssue({ code: "custom", message: `key ${JSON.stringify(key)} ${keyProblem}` });
    const problem = stringProblem(value, true);
    if (problem) ctx.addIssue({ code: "custom", path: [key], message: problem });
  }
});

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
const ABOUT = z.strictObject(Object.fromEntries(Object.keys(LISTS).map((name) => [name, text])) as Record<keyof typeof LISTS, typeof text>);

const OCCUPATION = z.strictObject({
  id: kebab,
  titles: list(false),
  phrases: list(true),
  shared_phrases: list(true).optional(),
  skills: list(true),
});
type Entry = z.infer<typeof OCCUPATION>;

/** The whole folder as one value: file path (relative to the folder) → its content, so an issue's path starts with its file. */
const SCHEMA = z
  .object({
    [FIELDS]: z.strictObject({ about: text, fields: z.array(z.strictObject({ field: kebab, about: text })).min(1, "is empty") }),
    [WORDS]: z.strictObject({ about: ABOUT, ...LISTS }),
  })
  .catchall(z.array(OCCUPATION))
  .superRefine((folder, ctx) => {
    const issue = (path: PropertyKey[], message: string) => ctx.addIssue({ code: "custom", path, message });
    const files = folder[FIELDS].fields.map(({ field }) => `${OCCUPATIONS_DIR}/${field}.json`);
    files.forEach((file, i) => {
      if (files.indexOf(file) !== i) issue([FIELDS, "fields", i, "field"], `is a duplicate of fields[${files.indexOf(file)}]`);
      else if (!(file in folder)) issue([FIELDS, "fields", i, "field"], `names ${file}, which does not exist`);
    });
    for (const file of Object.keys(folder)) {
      if (file.startsWith(`${OCCUPATIONS_DIR}/`) && !files.includes(file)) issue([file], `is not listed in ${FIELDS}`);
    }
    const entries = [...new Set(files)].flatMap((file) => (folder[file] ?? []).map((entry, i) => ({ file, i, entry: entry as Entry })));
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
/** fingerprintOf the default knowledge; ranking-weights.json records the one it was fitted on. */
export const KNOWLEDGE_FINGERPRINT = KNOWLEDGE.fingerprint;
