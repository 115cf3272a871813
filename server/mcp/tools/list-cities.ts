import { CityListSchema, type CityList } from "../../../shared/search.ts";
import { z } from "zod";
import { READ_ONLY, jsonSchema, readArgs, type McpTool } from "../tool.ts";
import { nameKey } from "../../places/names.ts";

/** Optional narrowing (ours): without arguments the spec's answer, every city. */
const Input = z.object({
  prefix: z.string().optional().describe("Only cities starting with this, case and accents aside (e.g. \"san\")"),
  limit: z.number().int().min(1).optional().describe("At most this many cities (total still counts all that match)"),
  with_counts: z.boolean().optional().describe("true: also city_counts, each city with its postings"),
});

export const listCitiesTool: McpTool = {
  definition: {
    name: "list_cities",
    title: "List cities",
    description:
      "Lists every city that has job postings, sorted. These are the exact, case-sensitive values search_jobs accepts in its city filter. Takes no arguments; optionally prefix, limit and with_counts to ask for fewer, with their posting counts.",
    inputSchema: jsonSchema(Input),
    outputSchema: jsonSchema(CityListSchema),
    annotations: { title: "List cities", ...READ_ONLY },
  },

  async call(args, deps) {
    const { prefix, limit, with_counts: withCounts } = readArgs(Input, args);
    const { cities, cityCounts } = await (await deps.store.view()).facets();
    const start = prefix === undefined ? undefined : nameKey(prefix);
    const matching = start === undefined ? cities : cities.filter((city) => nameKey(city).startsWith(start));
    const shown = limit === undefined ? matching : matching.slice(0, limit);
    const output: CityList = { total: matching.length, cities: shown };
    if (withCounts) {
      const postings = new Map(cityCounts.map((c) => [c.city, c.postings]));
      output.city_counts = shown.map((city) => ({ city, count: postings.get(city) ?? 0 }));
    }
    return output;
  },
};
