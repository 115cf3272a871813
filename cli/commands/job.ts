import { defineCommand } from "citty";
import type { Posting } from "../../shared/job.ts";
import { CONNECTION_ARGS, clientSettings, jobRemote } from "../client.ts";
import { colorEnabled, createStyle, type Style } from "../format.ts";
import { compactSalary } from "./search.ts";

export default defineCommand({
  meta: {
    name: "job",
    description: "One whole posting by its id (GET /v1/jobs/{id}): its fields, then its description.",
  },
  args: {
    id: { type: "positional", description: "The posting's id (the id of a search result)", required: true },
    ...CONNECTION_ARGS,
    json: { type: "boolean", description: "Print the raw JSON response", default: false },
  },
  async run({ args }) {
    const response = await jobRemote(clientSettings(args), args.id);
    if (args.json) return void console.log(JSON.stringify(response, null, 2));
    console.log(formatPosting(response.job, createStyle(colorEnabled())));
  },
});

/** Title and company, then one line per known field, then the description. */
export function formatPosting(job: Posting, style: Style): string {
  const fields: Array<[string, string | undefined]> = [
    ["id", job.id],
    ["place", [job.city, job.country].filter(Boolean).join(", ") || undefined],
    ["published", job.publish_time],
    ["salary", job.base_salary && compactSalary(job.base_salary)],
    ["seniority", job.seniority_level],
    ["type", job.employment_type],
    ["tags", job.job_tags.join(", ") || undefined],
    ["source", job.data_source],
    ["url", job.job_url],
  ];
  const title = [job.job_title ?? "(no title)", job.company_name].filter(Boolean).join(" — ");
  const lines = fields.filter(([, value]) => value).map(([name, value]) => `${style.dim(name.padEnd(10))} ${value}`);
  return [style.bold(title), ...lines, "", job.job_description].join("\n");
}
