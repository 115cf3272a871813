import { CityListSchema, type CityList } from "../../../shared/search.ts";
import { z } from "zod";
import { READ_ONLY, jsonSchema, type McpTool } from "../tool.ts";

export const listCitiesTool: McpTool = {
  definition: {
    name: "list_cities",
    title: "List cities",
    description:
      "Lists every city that has job postings, sorted. These are the exact, case-sensitive values search_jobs accepts in its city filter. Takes no arguments.",
    inputSchema: jsonSchema(z.object({})),
    outputSchema: jsonSchema(CityListSchema),
    annotations: { title: "List cities", ...READ_ONLY },
  },

  async call(_args, deps) {
    const { cities } = await deps.store.facets();
    const output: CityList = { total: cities.length, cities };
    return output;
  },
};
