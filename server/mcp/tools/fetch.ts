import { z } from "zod";
import { getPosting } from "../../search/similar.ts";
import { READ_ONLY, jsonSchema, readArgs, type McpTool } from "../tool.ts";

const Input = z.object({ id: z.string().min(1).describe("An id from search (or search_jobs)") });
const Output = z.object({
  id: z.string(),
  title: z.string(),
  text: z.string().describe("The whole description"),
  url: z.string(),
  metadata: z.record(z.string(), z.unknown()).describe("company, city, country, publish_time, base_salary, tags, source, seniority, employment type (those the posting has)"),
});

export const fetchTool: McpTool = {
  definition: {
    name: "fetch",
    title: "Fetch one job posting (id, title, text, url, metadata)",
    description: "The whole posting with this id, as {id, title, text, url, metadata}: text is the full description, metadata the other fields. An unknown id is an error result.",
    inputSchema: jsonSchema(Input),
    outputSchema: jsonSchema(Output),
    annotations: { title: "Fetch one job posting", ...READ_ONLY },
  },

  async call(args, deps) {
    const { id } = readArgs(Input, args);
    const { job_title, job_description, job_url, id: _, ...metadata } = await getPosting(deps, id);
    return { id, title: job_title ?? "Job posting", text: job_description, url: job_url, metadata };
  },
};
