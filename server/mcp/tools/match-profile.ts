import { MatchArgumentsSchema, MatchResultsSchema, parseMatchRequest, PROFILE_MAX_CHARS, type MatchResults } from "../../../shared/match.ts";
import { matchJobs } from "../../match/match.ts";
import { READ_ONLY, jsonSchema, type McpTool } from "../tool.ts";

export const matchProfileTool: McpTool = {
  definition: {
    name: "match_profile",
    title: "Match a résumé or profile to job postings",
    description: [
      `Give the text of a person's résumé or a short profile (plain text or Markdown, at most ${PROFILE_MAX_CHARS} characters) and get the postings that fit them best, best first, each scored 0 to 1 as search_jobs scores.`,
      "The service reads the jobs held and sought, skills, seniority (from titles and years), languages and where the person wants to work (a location line, \"based in\", \"looking for … in\": applied as filters; explicit filters win), and echoes it in structuredContent.profile.",
      "Each result's match lists matched_skills (in both the profile and the posting), missing_skills (in the posting only) and short reasons.",
      "Takes search_jobs' filters and paging; query is optional and adds words. The profile is never stored or logged.",
    ].join(" "),
    inputSchema: jsonSchema(MatchArgumentsSchema),
    outputSchema: jsonSchema(MatchResultsSchema),
    annotations: { title: "Match a résumé or profile to job postings", ...READ_ONLY },
  },

  async call(args, deps): Promise<MatchResults> {
    const { results, profile, query, facets, total_matches } = await matchJobs(deps, parseMatchRequest(args, "mcp"));
    return { total: results.length, results, profile, query, ...(facets ? { facets, total_matches } : {}) };
  },
};
