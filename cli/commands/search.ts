import { defineCommand } from "citty";
import type { JobResult } from "../../shared/job.ts";
import { clientSettings, searchRemote } from "../client.ts";

export default defineCommand({
  meta: {
    name: "search",
    description: "Search the running service (POST /v1/search).",
  },
  args: {
    query: { type: "positional", description: "What to look for, in words or sentences", required: true },
    city: { type: "string", description: "Exact city name (case-sensitive)" },
    country: { type: "string", description: "Two-letter country code, e.g. US" },
    since: { type: "string", description: "Only postings published after YYYY-MM-DD[ HH:MM:SS]" },
    until: { type: "string", description: "Only postings published before YYYY-MM-DD[ HH:MM:SS]" },
    source: { type: "string", description: "Only postings from this data source" },
    "top-k": { type: "string", description: "Number of results, 1–100 (default 20)" },
    offset: { type: "string", description: "Index of the first result, for paging (default 0)" },
    detail: { type: "string", description: "summary or full (adds the description)" },
    url: { type: "string", description: "Service URL (env JOBSEARCH_URL, default http://localhost:3000)" },
    "api-key": { type: "string", description: "API key (env JOBSEARCH_API_KEY)" },
    json: { type: "boolean", description: "Print the raw JSON response", default: false },
  },
  async run({ args }) {
    const body: Record<string, unknown> = { q: args.query };
    for (const name of ["city", "country", "since", "until", "source", "detail"] as const) {
      if (args[name] !== undefined) body[name] = args[name];
    }
    if (args["top-k"] !== undefined) body.top_k = toNumber(args["top-k"]);
    if (args.offset !== undefined) body.offset = toNumber(args.offset);
    const response = await searchRemote(clientSettings(args), body);
    if (args.json) return void console.log(JSON.stringify(response, null, 2));
    console.log(formatTable(response.results));
    console.log(`${response.total} results in ${response.search_time_ms} ms`);
  },
});

// --- internal ---

/** Numbers go over the wire as numbers; anything else is sent as written and the server names the problem. */
function toNumber(value: string): number | string {
  return /^-?\d+$/.test(value) ? Number(value) : value;
}

function formatTable(results: JobResult[]): string {
  const rows = results.map((job, i) => [
    String(i + 1),
    job.publish_time.slice(0, 10),
    job.score.toFixed(3),
    clip(job.job_title ?? "—", 40),
    clip(job.company_name ?? "—", 24),
    clip(job.city ?? "—", 18),
    job.base_salary ?? "",
  ]);
  const header = ["#", "date", "score", "title", "company", "city", "salary"];
  const widths = header.map((title, c) => Math.max(title.length, ...rows.map((row) => row[c]!.length)));
  const line = (cells: string[]) => cells.map((cell, c) => cell.padEnd(widths[c]!)).join("  ").trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
