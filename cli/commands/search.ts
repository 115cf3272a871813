import { defineCommand } from "citty";
import { AppError, invalidParameter } from "../../shared/errors.ts";
import type { JobResult } from "../../shared/job.ts";
import { CONNECTION_ARGS, clientSettings, searchRemote } from "../client.ts";
import { colorEnabled, createStyle, renderTable, terminalWidth, type Style } from "../format.ts";

export default defineCommand({
  meta: {
    name: "search",
    description: "Search the running service (POST /v1/search) and print the results as a table.",
  },
  args: {
    query: { type: "positional", description: "What to look for, in words or sentences", required: true },
    city: { type: "string", description: "Exact city name (case-sensitive; see `cities`)" },
    country: { type: "string", description: "Two-letter country code, e.g. US" },
    since: { type: "string", description: "Only postings published after YYYY-MM-DD[ HH:MM:SS]" },
    until: { type: "string", description: "Only postings published before YYYY-MM-DD[ HH:MM:SS]" },
    source: { type: "string", description: "Only postings from this data source" },
    "top-k": { type: "string", description: "Number of results, 1–100 (default 20)" },
    offset: { type: "string", description: "Index of the first result, for paging (default 0)" },
    detail: { type: "string", description: "summary or full (adds the description)" },
    sort: { type: "string", description: "How the page is shown: date (default, newest first) or relevance (best first)" },
    "min-score": { type: "string", description: "Leave out results scoring below this, 0–1 (about 0.5 keeps plausible matches)" },
    collapse: { type: "boolean", description: "Show reposts (same company and title) once; --no-collapse shows every copy", default: true },
    open: { type: "string", description: "Print only the URL of result N (1-based, as numbered in the table)", valueHint: "N" },
    ...CONNECTION_ARGS,
    json: { type: "boolean", description: "Print the raw JSON response", default: false },
  },
  async run({ args }) {
    const open = args.open === undefined ? undefined : parseOpen(args.open);
    const body: Record<string, unknown> = { q: args.query };
    for (const name of ["city", "country", "since", "until", "source", "detail", "sort"] as const) {
      if (args[name] !== undefined) body[name] = args[name];
    }
    if (args["top-k"] !== undefined) body.top_k = toNumber(args["top-k"]);
    if (args["min-score"] !== undefined) body.min_score = toNumber(args["min-score"]);
    if (!args.collapse) body.collapse = false;
    if (args.offset !== undefined) body.offset = toNumber(args.offset);
    const response = await searchRemote(clientSettings(args), body);
    if (open !== undefined) {
      const job = response.results[open - 1];
      if (!job) {
        const more = response.results.length === Number(body.top_k ?? DEFAULT_TOP_K) ? " (ask for more with --top-k)" : "";
        throw new AppError("NOT_FOUND", `--open ${open}: the search returned ${response.results.length} results${more}`);
      }
      return void console.log(openableUrl(job.job_url, open));
    }
    if (args.json) return void console.log(JSON.stringify(response, null, 2));
    const style = createStyle(colorEnabled());
    if (response.results.length > 0) console.log(formatResults(response.results, { width: terminalWidth(), style }));
    console.log(style.dim(`${response.total} results in ${response.search_time_ms} ms`));
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
const DEFAULT_TOP_K = 20;

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
