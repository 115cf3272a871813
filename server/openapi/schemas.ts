import { z } from "zod";
import { ErrorBodySchema, RateLimitedBodySchema } from "../../shared/errors.ts";
import { JobResultSchema } from "../../shared/job.ts";
import { MatchParametersSchema, MatchResponseSchema } from "../../shared/match.ts";
import { CreatedSavedSearchSchema, DeliveryLogSchema, NewJobsSchema, SavedSearchListSchema, SavedSearchSchema } from "../../shared/saved.ts";
import { CityCountsSchema, FilterValuesSchema, JobResponseSchema, SearchParametersSchema, SearchResponseSchema } from "../../shared/search.ts";

/** A JSON Schema object as it appears in the OpenAPI document. */
export type JsonSchema = Record<string, unknown>;

/**
 * The wire shapes of shared/ as OpenAPI components, converted by zod itself so the document cannot
 * drift from the schemas the code uses. A private registry: ids on the global one would change the
 * MCP tools' input and output schemas too.
 */
const registry = z.registry<{ id: string }>();
registry.add(SearchParametersSchema, { id: "SearchParameters" });
registry.add(SearchResponseSchema, { id: "SearchResponse" });
registry.add(JobResultSchema, { id: "JobResult" });
registry.add(CityCountsSchema, { id: "CityCounts" });
registry.add(JobResponseSchema, { id: "JobResponse" });
registry.add(FilterValuesSchema.extend({ request_id: z.string() }), { id: "FilterValues" });
registry.add(MatchParametersSchema, { id: "MatchParameters" });
registry.add(MatchResponseSchema, { id: "MatchResponse" });
registry.add(SavedSearchSchema.extend({ request_id: z.string() }), { id: "SavedSearch" });
registry.add(CreatedSavedSearchSchema.extend({ request_id: z.string() }), { id: "CreatedSavedSearch" });
registry.add(SavedSearchListSchema.extend({ request_id: z.string() }), { id: "SavedSearchList" });
registry.add(NewJobsSchema.extend({ request_id: z.string(), search_time_ms: z.number().int() }), { id: "NewJobs" });
registry.add(DeliveryLogSchema.extend({ request_id: z.string() }), { id: "DeliveryLog" });
registry.add(ErrorBodySchema, { id: "Error" });
registry.add(RateLimitedBodySchema, { id: "RateLimited" });

export type SchemaName =
  | "SearchParameters" | "SearchResponse" | "JobResult" | "CityCounts" | "JobResponse" | "FilterValues" | "MatchParameters" | "MatchResponse" | "Error" | "RateLimited"
  | "SavedSearch" | "CreatedSavedSearch" | "SavedSearchList" | "NewJobs" | "DeliveryLog";

export const componentSchemas: Record<SchemaName, JsonSchema> = Object.fromEntries(
  Object.entries(z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}` }).schemas).map(
    ([id, schema]) => [id, tidy(schema)],
  ),
) as Record<SchemaName, JsonSchema>;

export function ref(name: SchemaName): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** The search parameters as GET query parameters: each property of the schema, its description beside it. */
export function queryParameters(examples: Record<string, unknown>) {
  const schema = componentSchemas.SearchParameters as { properties: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(schema.properties).map(([name, { description, ...property }]) => ({
    name,
    in: "query",
    required: schema.required?.includes(name) ?? false,
    description,
    schema: property,
    ...(name in examples ? { example: examples[name] } : {}),
  }));
}

// --- internal ---

/**
 * Drops what does not belong in a component: `$schema` and a fragment `$id` (invalid as an `$id` in
 * JSON Schema 2020-12), and the ±2^53 bounds zod gives every integer, which only clutter the docs.
 */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value)
    .filter(([key, v]) => key !== "$schema" && key !== "$id" && !((key === "minimum" || key === "maximum") && Math.abs(v as number) === Number.MAX_SAFE_INTEGER))
    .map(([key, v]) => [key, tidy(v)]);
  return Object.fromEntries(entries);
}
