import { z } from "zod";
import { parseSearchRequest } from "../../../shared/search.ts";
import { searchJobs } from "../../search/search.ts";
import { READ_ONLY, jsonSchema, readArgs, type McpTool } from "../tool.ts";

/*
 * `search` and `fetch`: the pair ChatGPT connectors and deep-research clients call, in the shapes
 * they expect (search: {results: [{id, title, url}]}; fetch: {id, title, text, url, metadata}).
 */

const Input = z.object({ query: z.string().min(1).describe("What to look for, in words: a job, skills, a place, conditions (\"remote senior python developer in Berlin\")") });
const Output = z.object({
  results: z.array(z.object({ id: z.string(), title: z.string(), url: z.string() })).describe("The best matching postings, best first"),
});

/** Results search returns: one page of the best. */
const SEARCH_RESULTS = 20;

export const searchTool: McpTool = {
  definition: {
    name: "search",
    title: "Search job postings (id, title, url)",
    description: "Searches job postings for a query in words and returns the best matches, best first, as {id, title, url}; call fetch with an id for the whole posting. Conditions written in the query (remote, a city, senior, internship, posted in 2016) are applied as filters.",
    inputSchema: jsonSchema(Input),
    outputSchema: jsonSchema(Output),
    annotations: { title: "Search job postings", ...READ_ONLY },
  },

  async call(args, deps) {
    const { query } = readArgs(Input, args);
    const request = parseSearchRequest({ query, top_k: SEARCH_RESULTS, sort: "relevance" }, "mcp");
    const { results } = await searchJobs(deps, request);
    return {
      results: results.map((job) => ({ id: job.id, title: [job.job_title ?? "Job posting", job.company_name, job.city].filter(Boolean).join(" · "), url: job.job_url })),
    };
  },
};
