import { defineCommand } from "citty";
import { AppError } from "../../shared/errors.ts";
import { CONNECTION_ARGS, clientSettings, matchRemote } from "../client.ts";
import { colorEnabled, createStyle, renderTable, terminalWidth } from "../format.ts";
import { formatResults, paramArgs, paramBody } from "./search.ts";

export default defineCommand({
  meta: {
    name: "match",
    description: "Match a résumé or profile (a text or Markdown file, or - for standard input) to postings (POST /v1/match), best first, with the skills each shares and misses.",
  },
  args: {
    file: { type: "positional", description: "The profile's file, or - to read standard input", required: true },
    ...paramArgs(["understand"]),
    q: { type: "string", description: "Words to add to what the profile says" },
    ...CONNECTION_ARGS,
    json: { type: "boolean", description: "Print the raw JSON response", default: false },
  },
  async run({ args, rawArgs }) {
    const profile = args.file === "-" ? await Bun.stdin.text() : await readProfile(args.file);
    const body: Record<string, unknown> = { profile, ...paramBody(args, rawArgs), ...(args.q ? { q: args.q } : {}) };
    const response = await matchRemote(clientSettings(args), body);
    if (args.json) return void console.log(JSON.stringify(response, null, 2));
    const style = createStyle(colorEnabled());
    const read = response.profile;
    console.log(`read: ${[read.titles.slice(0, 3).join(", ") || "no title", read.seniority ?? "", read.skills.slice(0, 8).join(", ")].filter((part) => part !== "").join(" · ")}`);
    for (const hint of [...read.hints, ...response.query.hints]) console.log(style.dim(`note: ${hint}`));
    if (response.results.length > 0) {
      const width = terminalWidth();
      console.log(formatResults(response.results, { width, style }));
      const rows = response.results.map((result, i) => [String(i + 1), result.match.matched_skills.join(", ") || "—", result.match.missing_skills.join(", ") || "—"]);
      console.log(renderTable(
        [{ header: "#", align: "right" }, { header: "matched skills", shrink: true, min: 10 }, { header: "missing skills", shrink: true, min: 10 }],
        rows,
        { width, headerStyle: (text) => style.bold(text) },
      ));
    }
    console.log(style.dim(`${response.total} results in ${response.search_time_ms} ms`));
  },
});

async function readProfile(path: string): Promise<string> {
  const file = Bun.file(path);
  if (!(await file.exists())) throw new AppError("INVALID_PARAMETER", `no file ${path}`);
  return file.text();
}
