import { z } from "zod";
import { SearchArgumentsSchema, SearchResultsSchema } from "../../../shared/search.ts";
import { similarJobs } from "../../search/similar.ts";
import { READ_ONLY, jsonSchema, readArgs, searchResults, type McpTool } from "../tool.ts";

/** search_jobs' arguments with the posting's id instead of a query. */
const Input = SearchArgumentsSchema.omit({ query: true, understand: true }).extend({
  id: z.string().min(1).describe("The posting to find similar ones to, as results carry it"),
});

export const findSimilarJobsTool: McpTool = {
  definition: {
    name: "find_similar_jobs",
    title: "Find similar job postings",
    description: [
      "Postings like the one with this id (same kind of job), best first; the posting itself and the rest of its cluster (reposts, copies on other sources) are left out.",
      "Takes search_jobs' filters and paging (city, country, since, until, remote, seniority, employment_type, tags, salary_min, near, top_k, offset, sort, min_score, facets…).",
      "Returns the same shape as search_jobs. An unknown id is an error result.",
    ].join(" "),
    inputSchema: jsonSchema(Input),
    outputSchema: jsonSchema(SearchResultsSchema),
    annotations: { title: "Find similar job postings", ...READ_ONLY },
  },

  async call(args, deps) {
    const { id } = readArgs(z.object({ id: Input.shape.id }), args);
    const { id: _, ...rest } = args;
    return searchResults(await similarJobs(deps, id, rest, "mcp"));
  },
};
