import { z } from "zod";
import { parseDateTime } from "./time.ts";

export const SALARY_PATTERN = /^\d+(?:\.\d+)?-\d+(?:\.\d+)? [A-Z]{3}\/(?:YEAR|MONTH|WEEK|DAY|HOUR)$/;
export const COUNTRY_PATTERN = /^[A-Z]{2}$/;

const optionalText = z.string({ error: "must be a string or null" }).nullish();

/** A required string field whose messages read well after the field name. */
function requiredText() {
  return z.string({ error: (issue) => (issue.input == null ? "is required" : "must be a string") });
}

/**
 * One posting as it is ingested (the fields of the shared data set). `id` may be missing:
 * ingest then derives a stable one from `job_url`.
 */
export const JobRecordSchema = z.object({
  id: z.string().trim().min(1).max(256).nullish(),
  job_title: optionalText,
  company_name: optionalText,
  city: optionalText,
  country: z.string().regex(COUNTRY_PATTERN, "must be two uppercase letters (ISO 3166-1 alpha-2)").nullish(),
  publish_time: requiredText()
    .refine((value) => parseDateTime(value) !== undefined, "must be YYYY-MM-DD HH:MM:SS"),
  base_salary: z.string().regex(SALARY_PATTERN, "must look like 120000.00-150000.00 USD/YEAR").nullish(),
  job_url: requiredText().trim().min(1, "is required").max(2048),
  job_tags: z.array(z.string()).nullish(),
  data_source: requiredText()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "must be a short name such as indeed or linkedin"),
  seniority_level: optionalText,
  employment_type: optionalText,
  job_description: requiredText().min(1, "is required"),
});

export type JobRecord = z.input<typeof JobRecordSchema>;
export type ValidJobRecord = z.output<typeof JobRecordSchema> & { id: string };

/** A search result (job-search-service.md §2.1, and `id`). Optional fields are absent when unknown, never null. */
export const JobResultSchema = z.object({
  score: z.number().min(0).max(1).describe("Relevance in [0, 1], higher is better; the same posting scores the same on every page"),
  id: z.string().describe("The posting's id (ours, beside the spec's fields): GET /v1/jobs/{id}, MCP get_job"),
  job_title: z.string().optional(),
  city: z.string().optional(),
  company_name: z.string().optional(),
  publish_time: z.string().describe("YYYY-MM-DD HH:MM:SS (UTC)"),
  base_salary: z.string().optional().describe("<min>-<max> <CURRENCY>/<PERIOD>, e.g. 120000.00-150000.00 USD/YEAR"),
  job_url: z.string(),
  job_tags: z.array(z.string()),
  data_source: z.string(),
  seniority_level: z.string().optional(),
  employment_type: z.string().optional(),
  job_description: z.string().optional().describe("Only with detail=full"),
  job_description_truncated: z.boolean().optional().describe("true when job_description was cut to 32,000 characters; absent otherwise"),
  bm25_rank: z.number().int().nullable().optional().describe("explain=true: rank among the keyword (BM25) candidates, null when not among them"),
  vector_rank: z.number().int().nullable().optional().describe("explain=true: rank among the vector candidates, null when not among them"),
  fused_score: z.number().optional().describe("explain=true: the fused relevance before calibration to 0-1"),
  ...clusterFields(),
});

/** The same job's fields (ours, beside the spec's): results, job details. */
function clusterFields() {
  return {
    cluster_id: z.string().describe("The same job's cluster (reposts, copies on other sources or by agencies share it): collapse shows one posting per cluster; GET /v1/jobs/{id} lists the others"),
    first_seen: z.string().optional().describe("ISO 8601 (UTC): when a load first brought a posting of this cluster; absent on a table loaded before clusters, until its next load"),
    last_seen: z.string().optional().describe("ISO 8601 (UTC): when a load brought this cluster's newest posting"),
    times_posted: z.number().int().optional().describe("Distinct days (UTC) the cluster's postings were published on"),
  };
}

export type JobResult = z.infer<typeof JobResultSchema>;

/** One whole posting (GET /v1/jobs/{id}, MCP get_job): its fields as loaded, unknown ones absent. */
export const PostingSchema = z.object({
  id: z.string(),
  job_title: z.string().optional(),
  company_name: z.string().optional(),
  city: z.string().optional(),
  country: z.string().optional().describe("ISO 3166-1 alpha-2"),
  publish_time: z.string().describe("YYYY-MM-DD HH:MM:SS (UTC)"),
  base_salary: z.string().optional(),
  job_url: z.string(),
  job_tags: z.array(z.string()),
  data_source: z.string(),
  seniority_level: z.string().optional(),
  employment_type: z.string().optional(),
  job_description: z.string(),
});

/** One posting with its cluster (GET /v1/jobs/{id}, MCP get_job): the posting, its cluster's fields and the cluster's other postings. */
export const JobDetailSchema = PostingSchema.extend({
  ...clusterFields(),
  same_job: z
    .array(z.object({ id: z.string(), data_source: z.string(), job_url: z.string(), publish_time: z.string() }))
    .describe("The cluster's other postings (reposts, copies on other sources or by agencies), oldest publication first"),
});
export type JobDetail = z.infer<typeof JobDetailSchema>;
export type Posting = z.infer<typeof PostingSchema>;
