import { z } from "zod";
import { AppError, invalidParameter } from "./errors.ts";
import { JobResultSchema } from "./job.ts";
import { FacetCountsSchema, parseSearchRequest, QueryEchoSchema, SearchArgumentsSchema, SearchParametersSchema, type SearchRequest } from "./search.ts";
import { wireName, type Interface } from "./search-params.ts";

/*
 * Matching a person to jobs (POST /v1/match, MCP match_profile and explain_match, `cli match`): a
 * résumé or profile in, postings out, each with the skills it shares with the profile and those it
 * asks for beyond it. The search's parameters all apply; q, when given, adds words to those read.
 */

/** Longest profile read, in characters (a long CV is ~10,000); a longer one is refused with 413. */
export const PROFILE_MAX_CHARS = 20_000;

export interface MatchRequest {
  profile: string;
  /** The search parameters; `query` holds q's words (maybe empty). Best first unless `sort` says otherwise. */
  search: SearchRequest;
}

/** Reads `profile` and the search parameters an interface gives (MCP names q `query`). */
export function parseMatchRequest(raw: Record<string, unknown>, via: Interface): MatchRequest {
  const profile = raw.profile;
  if (profile === undefined || profile === null || (typeof profile === "string" && profile.trim() === "")) {
    throw invalidParameter("profile is required: the text of a résumé or a short profile");
  }
  if (typeof profile !== "string") throw invalidParameter("profile must be a string");
  if (!profile.isWellFormed()) throw invalidParameter("profile must be valid Unicode text");
  if (profile.length > PROFILE_MAX_CHARS) throw new AppError("PAYLOAD_TOO_LARGE", `profile must be at most ${PROFILE_MAX_CHARS} characters`);
  const q = wireName("q", via);
  const words = typeof raw[q] === "string" ? (raw[q] as string).trim() : raw[q];
  // The profile is what is searched: q is optional here, so an empty one stands in for the check.
  const search = parseSearchRequest({ ...raw, [q]: words === undefined || words === null || words === "" ? "-" : words }, via);
  return {
    profile,
    search: { ...search, query: words === undefined || words === null || words === "" ? "" : search.query, sort: raw.sort === undefined ? "relevance" : search.sort },
  };
}

/** Why a posting matches a profile. */
export const MatchDetailSchema = z.object({
  matched_skills: z.array(z.string()).describe("Skills both the profile and the posting (its tags or text) name"),
  missing_skills: z.array(z.string()).describe("Skills the posting names (its tags or text) and the profile does not"),
  reasons: z.array(z.string()).describe("Short reasons, e.g. \"title: data engineer\", \"skills: 5 of 8\", \"seniority: senior\""),
});
export type MatchDetail = z.infer<typeof MatchDetailSchema>;

export const MatchResultSchema = JobResultSchema.extend({ match: MatchDetailSchema });
export type MatchResult = z.infer<typeof MatchResultSchema>;

/** What the service read from the profile; nothing of it is kept after the request. */
export const ProfileEchoSchema = z.object({
  titles: z.array(z.string()).describe("Occupations sought (first) and held, as the knowledge base names them"),
  skills: z.array(z.string()).describe("Skills named in the profile, most mentioned first"),
  seniority: z.string().nullable().describe("senior, junior, mid, intern or lead, from titles or years; it ranks, it does not filter"),
  years: z.number().nullable().describe("Years of experience stated, the largest"),
  languages: z.array(z.string()).describe("Spoken languages listed"),
  applied_filters: z.record(z.string(), z.unknown()).describe("Filters read from where the profile wants to work (city, country, remote, employment_type) and applied"),
  nearby: z.record(z.string(), z.unknown()).describe("Where the profile says the person is (a location line, \"based in …\"): postings there rank first, unless the profile states a preference; not a filter"),
  preferred: z.record(z.string(), z.unknown()).describe("Where and how the profile would rather work (\"ideally remote\", \"open to roles in Leeds\"): postings that meet it rank first; not a filter"),
  text: z.string().describe("The words searched: q's, the first title and the most mentioned skills"),
  hints: z.array(z.string()),
});
export type ProfileEcho = z.infer<typeof ProfileEchoSchema>;

const matchPage = {
  total: z.number().int().describe("Number of results in this page"),
  results: z.array(MatchResultSchema).describe("The page, best match first (sort=date: newest first)"),
  profile: ProfileEchoSchema,
  query: QueryEchoSchema,
  facets: FacetCountsSchema.optional(),
  total_matches: z.number().int().optional(),
};

/** POST /v1/match's response. */
export const MatchResponseSchema = z.object({
  request_id: z.string(),
  search_time_ms: z.number().int(),
  ...matchPage,
});
export type MatchResponse = z.infer<typeof MatchResponseSchema>;

/** What `match_profile` returns as structuredContent. */
export const MatchResultsSchema = z.object(matchPage);
export type MatchResults = z.infer<typeof MatchResultsSchema>;

const profileField = z.string().describe(`The text of a résumé or short profile, plain text or Markdown, at most ${PROFILE_MAX_CHARS} characters. Never stored or logged.`);

/** POST /v1/match's body: the profile and every search parameter (q optional). */
export const MatchParametersSchema = SearchParametersSchema.extend({ profile: profileField, q: z.string().optional() });
/** Arguments of the MCP tool `match_profile`. */
export const MatchArgumentsSchema = SearchArgumentsSchema.extend({ profile: profileField, query: z.string().optional().describe("Optional words added to what the profile says") });
/** Arguments of the MCP tool `explain_match`. */
export const ExplainMatchArgumentsSchema = z.object({ id: z.string().describe("A posting's id (from a result)"), profile: profileField });
export const ExplainMatchSchema = z.object({ id: z.string(), job_title: z.string().optional(), match: MatchDetailSchema, text: z.string().describe("A sentence an agent can quote") });
export type ExplainMatch = z.infer<typeof ExplainMatchSchema>;
