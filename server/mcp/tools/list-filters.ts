import { z } from "zod";
import { READ_ONLY, jsonSchema, type McpTool } from "../tool.ts";

const Counts = z.array(z.object({ value: z.string(), count: z.number().int() }));
const Output = z.object({
  city: Counts.describe("Exact values of search_jobs' city filter"),
  country: Counts.describe("Two-letter codes for the country filter"),
  source: Counts.describe("Values of the source filter"),
  seniority: Counts.describe("Values of the seniority filter"),
  employment_type: Counts.describe("Values of the employment_type filter"),
  remote: Counts.describe("\"true\" and \"false\": postings marked remote and not"),
  tags: Counts.describe("The 100 most used tags, lowercased, for the tags filter"),
});

export const listFiltersTool: McpTool = {
  definition: {
    name: "list_filters",
    title: "List filter values",
    description: "Every value of each search_jobs filter that the postings hold (city, country, source, seniority, employment_type, remote, and the 100 most used tags), each with how many postings have it, most first. Use it to pick valid filter values. Takes no arguments.",
    inputSchema: jsonSchema(z.object({})),
    outputSchema: jsonSchema(Output),
    annotations: { title: "List filter values", ...READ_ONLY },
  },

  async call(_args, deps) {
    return { ...(await deps.store.filterValues()) };
  },
};
