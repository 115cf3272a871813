import { parseSearchRequest, SearchArgumentsSchema, SearchResultsSchema } from "../../../shared/search.ts";
import { searchJobs } from "../../search/search.ts";
import { READ_ONLY, jsonSchema, searchResults, type McpTool } from "../tool.ts";

export const searchJobsTool: McpTool = {
  definition: {
    name: "search_jobs",
    title: "Search job postings",
    description: [
      "Semantic search over job postings: describe the job in words or sentences and get the best-matching postings, each with a relevance score from 0 to 1.",
      "Filters narrow the set before ranking: city (exact and case-sensitive; call list_cities for valid names), country (two-letter code such as US), since/until (publish time, exclusive), source (data source), remote (true/false), seniority and employment_type (lists of the values the schema names), tags (skills the posting must all carry, case-insensitive), company (exact).",
      "Paging: top_k results per page (1-100, default 20), offset = index of the first result; offset 0 with top_k 20 is page 1, offset 20 page 2. A page holds those relevance ranks, displayed newest first, then by score.",
      "detail=full adds the whole job description; keep summary for browsing.",
      "Conditions written in the query (\"remote\", \"in Berlin\", \"senior\", \"internship\", \"posted in 2016\") are applied as filters and misspellings corrected; structuredContent.query says what was searched and applied (understand=false searches the words as typed).",
    ].join(" "),
    inputSchema: jsonSchema(SearchArgumentsSchema),
    outputSchema: jsonSchema(SearchResultsSchema),
    annotations: { title: "Search job postings", ...READ_ONLY },
  },

  async call(args, deps) {
    const request = parseSearchRequest(args, "mcp");
    return searchResults(await searchJobs(deps, request));
  },
};
