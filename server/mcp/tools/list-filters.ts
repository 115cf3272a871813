import { z } from "zod";
import { FilterValuesSchema } from "../../../shared/search.ts";
import { READ_ONLY, jsonSchema, type McpTool } from "../tool.ts";

export const listFiltersTool: McpTool = {
  definition: {
    name: "list_filters",
    title: "List filter values",
    description: "Every value of each search_jobs filter that the postings hold (city, country, source, seniority, employment_type, remote, and the 100 most used tags), each with how many postings have it, most first. Use it to pick valid filter values. Takes no arguments.",
    inputSchema: jsonSchema(z.object({})),
    outputSchema: jsonSchema(FilterValuesSchema),
    annotations: { title: "List filter values", ...READ_ONLY },
  },

  async call(_args, deps) {
    return { ...(await (await deps.store.view()).filterValues()) };
  },
};
