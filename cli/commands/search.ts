import { defineCommand, type ArgsDef } from "citty";
import { z } from "zod";
import { AppError, invalidParameter } from "../../shared/errors.ts";
import type { JobResult } from "../../shared/job.ts";
import { PLAUSIBLE_SCORE, type SearchResponse, type SortOrder } from "../../shared/search.ts";
import { SEARCH_PARAMS, TOP_K_DEFAULT, type ParamSpec } from "../../shared/search-params.ts";
import { understoodLine } from "../../shared/understood.ts";
import { CONNECTION_ARGS, clientSettings, searchRemote } from "../client.ts";
import { colorEnabled, createStyle, renderTable, terminalWidth, type Style } from "../format.ts";

/**
 * A flag for each search parameter the CLI offers (all but the query, a positional, and REST-only
 * ones), from its declaration: `top_k` → `--top-k`; booleans as flags (`--no-collapse`); lists
 * comma-separated (`--seniority senior,lead`); a repeatable one given again for a list (`--city Berlin --city Munich`).
 */
const PARAM_FLAGS = (Object.entries(SEARCH_PARAMS) as Array<[string, ParamSpec<unknown>]>)
  .filter(([name, spec]) => name !== "q" && !spec.restOnly)
  .map(([name, spec]) => {
    const type = (z.toJSONSchema(spec.schema, { io: "input" }) as { type?: string }).type;
    const kind = spec.repeatable ? "repeatable" : type === "boolean" ? "boolean" : type === "integer" || type === "number" ? "number" : type === "array" ? "list" : "string";
    return { name, flag: name.replaceAll("_", "-"), kind, help: spec.cliHelp ?? spec.schema.description ?? name };
  });

/** The search parameters' flags, but those in `except`. */
export function paramArgs(except: string[] = []): ArgsDef {
  return Object.fromEntries(
    PARAM_FLAGS.filter(({ name }) => !except.includes(name))
      .map(({ flag, kind, help }) => [flag, { type: kind === "boolean" ? "boolean" : "string", description: help }]),
  ) as ArgsDef;
}

/**
 * The request body the flags given make (lists split on commas, numbers as numbers). citty keeps the
 * last of a flag given twice, so a repeatable one's values are read from `rawArgs`.
 */
export function paramBody(args: Record<string, unknown>, rawArgs: string[] = []): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const { name, flag, kind } of PARAM_FLAGS) {
    const value = args[flag];
    if (value === undefined) continue;
    const values = kind === "repeatable" ? repeatedFlag(rawArgs, flag) : [];
    if (values.length > 1) body[name] = values;
    else if (kind === "number") body[name] = toNumber(String(value));
    else if (kind === "list") body[name] = String(value).split(",").map((item) => item.trim()).filter((item) => item !== "");
    else body[name] = value;
  }
  return body;
}

/**
 * The order the CLI asks for: best first unless --sort says otherwise (the API's own default is the
 * spec's, newest first; a person reading a table wants the best match on top).
 */
export function withCliOrder(body: Record<string, unknown>): Record<string, unknown> & { sort: SortOrder } {
  return { ...body, sort: body.sort === "date" ? "date" : body.sort === undefined ? "relevance" : (body.sort as SortOrder) };
}

/** A page as the CLI prints it: what was understood and its notes, the table, the facets' counts, the count line. */
export function printPage(response: SearchResponse, asked: { sort: SortOrder; min_score?: unknown }): void {
  const style = createStyle(colorEnabled());
  const line = understoodLine(response.query);
  if (line) console.log(`${line} ${style.dim("(--no-understand searches the exact words)")}`);
  for (const hint of response.query.hints) console.log(style.dim(`note: ${hint}`));
  if (response.results.length > 0) console.log(formatResults(response.results, { width: terminalWidth(), style }));
  for (const [name, counts] of Object.entries(response.facets ?? {})) {
    console.log(`\n${renderTable([{ header: name, shrink: true, min: 8 }, { header: "postings", align: "right" }], counts.map((c) => [c.value, String(c.count)]), { width: terminalWidth(), headerStyle: (text) => style.bold(text) })}`);
  }
  const threshold = typeof asked.min_score === "number" ? asked.min_score : PLAUSIBLE_SCORE;
  console.log(style.dim(summaryLine(response, asked.sort, threshold)));
}

/**
 * The count line: the rows and their order, then, when the service counted matches (with facets),
 * how many postings score `threshold` or more in all and how many of those are these rows; so the
 * two numbers never read as one contradicting the other ("20 results of 11 matching").
 */
export function summaryLine(response: Pick<SearchResponse, "total" | "results" | "search_time_ms" | "total_matches">, sort: SortOrder, threshold: number): string {
  const rows = `${response.total} result${response.total === 1 ? "" : "s"}`;
  const order = response.total > 1 ? `, ${sort === "date" ? "newest first (--sort relevance: best first)" : "best first (--sort date: newest first)"}` : "";
  const close = response.total_matches === undefined
    ? ""
    : `; close matches (score ≥ ${threshold}): ${response.total_matches} in all, ${response.results.filter((r) => r.score >= threshold).length} shown`;
  return `${rows}${order} in ${response.search_time_ms} ms${close}`;
}

export default defineCommand({
  meta: {
    name: "search",
    description: "Search the running service (POST /v1/search) and print the results as a table.",
  },
  args: {
    query: { type: "positional", description: "What to look for, in words or sentences", required: true },
    ...paramArgs(),
    open: { type: "string", description: "Print only the URL of result N (1-based, as numbered in the table)", valueHint: "N" },
    ...CONNECTION_ARGS,
    json: { type: "boolean", description: "Print the raw JSON response", default: false },
  },
  async run({ args, rawArgs }) {
    const open = args.open === undefined ? undefined : parseOpen(args.open);
    const body = withCliOrder({ q: args.query, ...paramBody(args, rawArgs) });
    const response = await searchRemote(clientSettings(args), body);
    if (open !== undefined) {
      const job = response.results[open - 1];
      if (!job) {
        const more = response.results.length === Number(body.top_k ?? TOP_K_DEFAULT) ? " (ask for more with --top-k)" : "";
        throw new AppError("NOT_FOUND", `--open ${open}: the search returned ${response.results.length} results${more}`);
      }
      return void console.log(openableUrl(job.job_url, open));
    }
    if (args.json) return void console.log(JSON.stringify(response, null, 2));
    printPage(response, body);
  },
});

/** The results as an aligned table (#, title, company, city, date, salary, score) that fits `width`. */
export function formatResults(results: JobResult[], options: { width?: number; style?: Style } = {}): string {
  const style = options.style ?? createStyle(false);
  const missing = (text: string) => (text === NONE ? style.dim(text) : text);
  const rows = results.map((job, i) => [
    String(i + 1),
    job.job_title ?? NONE,
    job.company_name ?? NONE,
    job.city ?? NONE,
    job.publish_time.slice(0, 10),
    job.base_salary ? compactSalary(job.base_salary) : NONE,
    job.score.toFixed(3),
  ]);
  return renderTable(
    [
      { header: "#", align: "right", style: (text) => style.dim(text) },
      { header: "title", shrink: true, min: 10, weight: 2, style: (text) => style.bold(text) },
      { header: "company", shrink: true, min: 7, style: missing },
      { header: "city", shrink: true, min: 6, style: missing },
      { header: "date" },
      { header: "salary", shrink: true, min: 6, style: missing },
      { header: "score", align: "right", style: (text, r) => scoreStyle(style, results[r]!.score)(text) },
    ],
    rows,
    { ...(options.width === undefined ? {} : { width: options.width }), headerStyle: (text) => style.bold(text) },
  );
}

/** "120000.00-150000.00 USD/YEAR" → "120,000–150,000 USD/year"; anything else as it is. */
export function compactSalary(salary: string): string {
  const match = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?) ([A-Z]{3})\/([A-Z]+)$/.exec(salary);
  if (!match) return salary;
  const [, low, high, currency, period] = match as unknown as [string, string, string, string, string];
  const amount = (value: string) => Number(value).toLocaleString("en-US", { maximumFractionDigits: 2 });
  const range = low === high ? amount(low) : `${amount(low)}–${amount(high)}`;
  return `${range} ${currency}/${period.toLowerCase()}`;
}

// --- internal ---

const NONE = "—";

function scoreStyle(style: Style, score: number): (text: string) => string {
  if (score >= 0.5) return style.green;
  if (score >= 0.25) return style.yellow;
  return style.dim;
}

/**
 * The URL as a browser opener may take it: http(s) only (a posting may carry file:, javascript: or
 * anything else), whitespace and control characters (terminal escape sequences) removed.
 */
export function openableUrl(raw: string, n: number): string {
  const cleaned = raw.replace(/[\u0000-\u0020\u007f-\u009f]/g, "");
  let url: URL | undefined;
  try {
    url = new URL(cleaned);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new AppError("INVALID_PARAMETER", `--open ${n}: the posting's URL is not an http(s) address, so it is not printed`);
  }
  return url.href;
}

function parseOpen(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1) throw invalidParameter("--open must be a result number, 1 or more");
  return n;
}

/** Numbers go over the wire as numbers; anything else is sent as written and the server names the problem. */
function toNumber(value: string): number | string {
  return /^-?\d+(?:\.\d+)?$/.test(value) ? Number(value) : value;
}

/** Every value of `--flag value` and `--flag=value` in the order given. */
function repeatedFlag(rawArgs: string[], flag: string): string[] {
  const values: string[] = [];
  rawArgs.forEach((arg, i) => {
    if (arg === `--${flag}` && rawArgs[i + 1] !== undefined) values.push(rawArgs[i + 1]!);
    else if (arg.startsWith(`--${flag}=`)) values.push(arg.slice(flag.length + 3));
  });
  return values;
}
