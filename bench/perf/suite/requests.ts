/**
 * The request mix every search benchmark uses: ~20 realistic bodies (plain queries, city,
 * country and date filters, paging, a full-detail page), rotated by the load generator.
 */
export interface SearchBody {
  q: string;
  city?: string;
  country?: string;
  since?: string;
  top_k?: number;
  offset?: number;
  detail?: "summary" | "full";
}

export const QUERIES = [
  "backend engineer python", "frontend react developer", "machine learning researcher", "devops kubernetes",
  "mobile ios developer", "data scientist statistics", "product manager", "security engineer",
  "site reliability engineer", "embedded firmware engineer", "technical writer", "sales engineer",
];

export const SEARCH_BODIES: SearchBody[] = [
  { q: "backend engineer python" },
  { q: "frontend react developer", city: "San Francisco" },
  { q: "machine learning researcher", country: "US" },
  { q: "devops engineer linux", since: "2016-01-01" },
  { q: "mobile ios developer", city: "New York" },
  { q: "data scientist statistics", country: "GB" },
  { q: "product manager", top_k: 10 },
  { q: "security engineer", city: "London" },
  { q: "site reliability engineer", country: "DE" },
  { q: "embedded firmware engineer", top_k: 50 },
  { q: "technical writer documentation", since: "2015-06-01" },
  { q: "sales engineer", offset: 20 },
  { q: "full stack javascript node", city: "Berlin" },
  { q: "senior java developer distributed systems" },
  { q: "remote ruby on rails developer", country: "US", since: "2014-01-01" },
  { q: "ux designer", city: "Boston" },
  { q: "database administrator postgres", detail: "full" },
  { q: "startup cto cofounder", city: "Palo Alto" },
  { q: "qa automation test engineer", country: "CA" },
  { q: "android developer kotlin", top_k: 5 },
];

/** The same mix as MCP `tools/call search_jobs` JSON-RPC bodies. */
export function mcpBodies(): object[] {
  return SEARCH_BODIES.map(({ q, ...rest }, i) => ({
    jsonrpc: "2.0",
    id: i + 1,
    method: "tools/call",
    params: { name: "search_jobs", arguments: { query: q, ...rest } },
  }));
}
