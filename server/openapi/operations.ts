import type { DocumentDecoration } from "elysia";
import type { ErrorBody, RateLimitedBody } from "../../shared/errors.ts";
import type { MatchResponse } from "../../shared/match.ts";
import type { CityCounts, JobResponse, SearchResponse } from "../../shared/search.ts";
import { queryParameters, ref, type JsonSchema } from "./schemas.ts";

/**
 * The OpenAPI operation of each route, given to the route as its `detail`. The routes validate by
 * hand (parse: "none"), so the plugin cannot infer these; the schemas come from shared/ (schemas.ts)
 * and tests/api/rest/openapi.test.ts checks every example against those schemas and the live server.
 */

export const REQUEST_ID = "3f1c9a52-7c1e-4d0b-9a8e-2b6f1d4c8e71";

export const SEARCH_EXAMPLE: SearchResponse = {
  request_id: REQUEST_ID,
  total: 1,
  search_time_ms: 18,
  results: [
    {
      score: 0.87,
      id: "hn-4711",
      job_title: "Senior Backend Engineer",
      city: "Berlin",
      company_name: "Acme Analytics",
      publish_time: "2026-09-14 08:30:00",
      base_salary: "70000.00-90000.00 EUR/YEAR",
      job_url: "https://jobs.example.com/postings/4711",
      job_tags: ["Python", "PostgreSQL"],
      data_source: "linkedin",
      seniority_level: "Mid-Senior level",
      employment_type: "Full-time",
      cluster_id: "c3b1f0a9d2e4c6b8a",
      first_seen: "2026-09-14T09:00:12.345Z",
      last_seen: "2026-10-02T09:00:05.120Z",
      times_posted: 2,
    },
  ],
  query: {
    text: "backend engineer",
    applied_filters: { seniority: ["senior"], city: "Berlin" },
    corrected: "senior backend engineer in Berlin",
    hints: ['searched for "backend" instead of "bakend"'],
  },
};

export const JOB_EXAMPLE: JobResponse = {
  request_id: REQUEST_ID,
  job: {
    id: "hn-4711",
    job_title: "Senior Backend Engineer",
    company_name: "Acme Analytics",
    city: "Berlin",
    country: "DE",
    publish_time: "2026-09-14 08:30:00",
    base_salary: "70000.00-90000.00 EUR/YEAR",
    job_url: "https://jobs.example.com/postings/4711",
    job_tags: ["Python", "PostgreSQL"],
    data_source: "linkedin",
    seniority_level: "senior",
    employment_type: "FULL_TIME",
    job_description: "We build the data platform behind our analytics product: Python services on PostgreSQL and Kafka.",
    cluster_id: "c3b1f0a9d2e4c6b8a",
    first_seen: "2026-09-14T09:00:12.345Z",
    last_seen: "2026-10-02T09:00:05.120Z",
    times_posted: 2,
    same_job: [{ id: "in-88213", data_source: "indeed", job_url: "https://jobs.example.net/view/88213?utm_source=feed", publish_time: "2026-10-01 07:00:00" }],
  },
};

export const CITIES_EXAMPLE: CityCounts = {
  request_id: REQUEST_ID,
  total: 2,
  cities: [
    { city: "Berlin", country: "DE", postings: 412 },
    { city: "San Francisco", country: "US", postings: 388 },
  ],
};

/** One example per documented error; the test sends a request that provokes each and compares. */
export const ERROR_EXAMPLES = {
  missingQuery: { request_id: REQUEST_ID, error: "q is required", error_code: "MISSING_QUERY" },
  badCountry: { request_id: REQUEST_ID, error: "country must be two uppercase letters (ISO 3166-1 alpha-2), e.g. US", error_code: "INVALID_PARAMETER" },
  badOffset: { request_id: REQUEST_ID, error: "offset must be an integer >= 0", error_code: "INVALID_PARAMETER" },
  malformedJson: { request_id: REQUEST_ID, error: "Malformed JSON body", error_code: "INVALID_JSON" },
  invalidKey: { request_id: REQUEST_ID, error: "Invalid API key", error_code: "AUTH_INVALID_KEY" },
  internal: { request_id: REQUEST_ID, error: "Internal server error", error_code: "INTERNAL_ERROR" },
} satisfies Record<string, ErrorBody>;

export const RATE_LIMITED_EXAMPLE: RateLimitedBody = { error: "Rate limit exceeded", retry_after: 12 };

export const API_KEY = [{ ApiKey: [] }];
const REQUEST_ID_HEADER = { "x-request-id": { description: "The request's id (equals request_id in the body)", schema: { type: "string" } } };

const searchDescription = `Ranked job postings for a natural-language query, with optional filters.
A page holds relevance ranks [offset, offset+top_k) of the filtered postings, shown newest first, then by score
(\`sort=relevance\`: best first). \`top_k\` outside 1-100 is clamped, never rejected. The key is checked before the parameters.`;

export const searchGetOperation = operation({
  tags: ["Search"],
  summary: "Search job postings (query string)",
  description: `${searchDescription}\n\nNumbers and booleans are written as text (\`top_k=10\`, \`collapse=false\`); a parameter given twice is a 400.`,
  security: API_KEY,
  parameters: queryParameters({ q: "backend engineer python", city: "Berlin", country: "DE", since: "2026-09-01", top_k: 10 }),
  responses: searchResponses({ missingQuery: ERROR_EXAMPLES.missingQuery, badCountry: ERROR_EXAMPLES.badCountry, badOffset: ERROR_EXAMPLES.badOffset }),
});

export const searchPostOperation = operation({
  tags: ["Search"],
  summary: "Search job postings (JSON body, recommended)",
  description: `${searchDescription}\n\nNumbers must be JSON numbers and booleans JSON booleans; unknown fields are ignored. An empty body counts as \`{}\`.`,
  security: API_KEY,
  requestBody: {
    required: true,
    content: {
      "application/json": {
        schema: ref("SearchParameters"),
        examples: {
          simple: { summary: "A query", value: { q: "nurse for night shifts" } },
          filtered: {
            summary: "Filters, second page of 10, full descriptions",
            value: { q: "backend engineer python", country: "DE", since: "2026-09-01", source: "linkedin", top_k: 10, offset: 10, detail: "full" },
          },
        },
      },
    },
  },
  responses: searchResponses({
    missingQuery: ERROR_EXAMPLES.missingQuery,
    badCountry: ERROR_EXAMPLES.badCountry,
    malformedJson: ERROR_EXAMPLES.malformedJson,
  }),
});

export const citiesOperation = operation({
  tags: ["Search"],
  summary: "Cities with postings",
  description: "Every city that has postings, most postings first, with the country most of its postings name: the valid values of the `city` filter.",
  security: API_KEY,
  responses: {
    200: json("Cities, most postings first", ref("CityCounts"), { cities: CITIES_EXAMPLE }),
    ...commonErrors(),
  },
});

const JOB_ID = { name: "id", in: "path", required: true, description: "The posting's id, as results carry it", schema: { type: "string" }, example: "hn-4711" };
const notFound = () => json("No posting has this id", ref("Error"), { notFound: { request_id: REQUEST_ID, error: "No posting has the id \"hn-1\"", error_code: "NOT_FOUND" } });

export const filtersOperation = operation({
  tags: ["Search"],
  summary: "Filter values with counts",
  description: "Each filter's values that the postings hold (city, country, source, seniority, employment_type, remote, the 100 most used tags), with their postings, most first: what a form or an agent can offer (MCP: list_filters).",
  security: API_KEY,
  responses: {
    200: json("Each filter's values", ref("FilterValues"), {
      values: { request_id: REQUEST_ID, city: [{ value: "Berlin", count: 412 }], country: [{ value: "DE", count: 530 }], source: [{ value: "linkedin", count: 900 }], seniority: [{ value: "senior", count: 120 }], employment_type: [{ value: "FULL_TIME", count: 700 }], remote: [{ value: "false", count: 800 }, { value: "true", count: 100 }], tags: [{ value: "python", count: 210 }] },
    }),
    ...commonErrors(),
  },
});

export const jobOperation = operation({
  tags: ["Jobs"],
  summary: "One posting",
  description: "The whole posting with this id (results carry it as `id`), its description uncut.",
  security: API_KEY,
  parameters: [JOB_ID],
  responses: { 200: json("The posting", ref("JobResponse"), { job: JOB_EXAMPLE }), 404: notFound(), ...commonErrors() },
});

export const similarOperation = operation({
  tags: ["Jobs"],
  summary: "Postings similar to one",
  description: "A search for postings like this one (its vector, its title and first tags), with the search's filters and paging, best first unless `sort` says otherwise; the posting and the rest of its cluster (the same job: reposts, copies) are left out. The response is a search response.",
  security: API_KEY,
  parameters: [JOB_ID, ...queryParameters({ top_k: 10 }).filter((p) => p.name !== "q" && p.name !== "understand")],
  responses: { 200: json("A page of similar postings", ref("SearchResponse"), { page: { ...SEARCH_EXAMPLE, query: { text: "Senior Backend Engineer", applied_filters: {}, corrected: null, hints: [] } } }), 404: notFound(), ...commonErrors() },
});

const MATCH_EXAMPLE: MatchResponse = {
  request_id: REQUEST_ID,
  total: 1,
  search_time_ms: 41,
  results: [{
    ...SEARCH_EXAMPLE.results[0]!,
    match: { matched_skills: ["Python", "PostgreSQL"], missing_skills: ["Kubernetes"], reasons: ["title: backend engineer", "skills: 2 of 3", "place: Berlin"] },
  }],
  profile: {
    titles: ["backend engineer"],
    skills: ["python", "postgresql", "django"],
    seniority: "senior",
    years: 7,
    languages: ["English", "German"],
    applied_filters: {},
    nearby: { city: "Berlin" },
    preferred: {},
    text: "backend engineer python postgresql django",
    hints: ["city \"Berlin\" is where the profile says the person is: postings there rank first; it does not filter them", "seniority \"senior\" ranks the results; it does not filter them"],
  },
  query: { text: "backend engineer python postgresql django", applied_filters: {}, corrected: null, hints: [] },
};

export const matchOperation = operation({
  tags: ["Jobs"],
  summary: "Match a résumé or profile to postings",
  description:
    "The profile (plain text or Markdown, at most 20,000 characters) is read for the jobs held and sought, skills, seniority, " +
    "languages and where the person wants to work; its first title and main skills are searched with the filters it states " +
    "(explicit filters win), and the best postings are re-ranked by the skills they ask for that the profile has. Each result " +
    "carries `match` (matched and missing skills, reasons). Every search parameter applies; `q` is optional and adds words. " +
    "Best first unless `sort` says otherwise. The profile is never stored, logged or cached.",
  security: API_KEY,
  requestBody: {
    required: true,
    content: { "application/json": { schema: ref("MatchParameters"), examples: { cv: { summary: "A short profile", value: { profile: "Senior backend engineer, 7 years of Python, Django and PostgreSQL. Based in Berlin.", top_k: 10 } } } } },
  },
  responses: {
    200: json("The best matches", ref("MatchResponse"), { page: MATCH_EXAMPLE }),
    400: json("A missing profile or a bad parameter (INVALID_PARAMETER), or a malformed body (INVALID_JSON)", ref("Error"), { missingProfile: { request_id: REQUEST_ID, error: "profile is required: the text of a résumé or a short profile", error_code: "INVALID_PARAMETER" }, badCountry: ERROR_EXAMPLES.badCountry }),
    413: json("A profile over 20,000 characters, or a body over MAX_BODY_BYTES", ref("Error"), { tooLong: { request_id: REQUEST_ID, error: "profile must be at most 20000 characters", error_code: "PAYLOAD_TOO_LARGE" } }),
    ...commonErrors(),
  },
});

// --- internal ---

export function operation(detail: Record<string, unknown>): DocumentDecoration {
  return detail as DocumentDecoration;
}

export function json(description: string, schema: JsonSchema, examples: Record<string, unknown>, headers: Record<string, unknown> = REQUEST_ID_HEADER) {
  const named = Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }]));
  return { description, headers, content: { "application/json": { schema, examples: named } } };
}

function searchResponses(badRequests: Record<string, ErrorBody>) {
  return {
    200: json("A page of results", ref("SearchResponse"), { page: SEARCH_EXAMPLE }),
    400: json("A missing q (MISSING_QUERY), a bad parameter (INVALID_PARAMETER, the message names it) or a malformed body (INVALID_JSON)", ref("Error"), badRequests),
    ...commonErrors(),
  };
}

export function commonErrors() {
  return {
    403: json("The x-api-key header is missing, unknown or revoked", ref("Error"), { invalidKey: ERROR_EXAMPLES.invalidKey }),
    429: json("Over the key's rate limit", ref("RateLimited"), { rateLimited: RATE_LIMITED_EXAMPLE }, {
      "retry-after": { description: "Seconds to wait, the same as retry_after", schema: { type: "integer" } },
      ...REQUEST_ID_HEADER,
    }),
    500: json("An unexpected error (logged with its stack under the request id)", ref("Error"), { internal: ERROR_EXAMPLES.internal }),
  };
}
