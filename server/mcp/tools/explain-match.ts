import { ExplainMatchArgumentsSchema, ExplainMatchSchema, parseMatchRequest } from "../../../shared/match.ts";
import { explainMatch } from "../../match/match.ts";
import { READ_ONLY, jsonSchema, readArgs, type McpTool } from "../tool.ts";

export const explainMatchTool: McpTool = {
  definition: {
    name: "explain_match",
    title: "Explain how a posting matches a profile",
    description:
      "For one posting (its id, from a result) and a résumé or profile text: the skills both name, those the posting asks for and the profile does not, short reasons (title, seniority), and a sentence to quote. An unknown id is an error result. The profile is never stored or logged.",
    inputSchema: jsonSchema(ExplainMatchArgumentsSchema),
    outputSchema: jsonSchema(ExplainMatchSchema),
    annotations: { title: "Explain how a posting matches a profile", ...READ_ONLY },
  },

  async call(args, deps) {
    const { id } = readArgs(ExplainMatchArgumentsSchema.pick({ id: true }), args);
    // The profile is checked as match_profile checks it (required, at most PROFILE_MAX_CHARS).
    const { profile } = parseMatchRequest({ profile: args.profile }, "mcp");
    return explainMatch(deps, id, profile);
  },
};
