import { createHash } from "node:crypto";
import type { JobResult, ValidJobRecord } from "../../shared/job.ts";
import { parseDateTime } from "../../shared/time.ts";
import { locateCity } from "../places/gazetteer.ts";
import { annualSalary } from "../salary/salary.ts";
import type { StoredJob } from "../store/schema.ts";
import { rankingTerms } from "../text/rank-terms.ts";
import { filterKeys } from "./filter-keys.ts";
import { encodeSignature, type SameJobSignature } from "./same-job.ts";

/*
 * A valid posting as the table stores it: the fields normalised, their content hash, what filters and
 * ranking read, the result fields as JSON, the cluster (clusters.ts) and the vector.
 */

/** Where a posting's cluster stands: its id and its signature. */
export interface ClusterPlace {
  clusterId: string;
  sig: SameJobSignature;
}

export function contentHash(record: ValidJobRecord): string {
  return createHash("sha256").update(JSON.stringify(normalized(record))).digest("hex").slice(0, 32);
}

export function toStoredJob(record: ValidJobRecord, hash: string, vector: Float32Array, cluster: ClusterPlace): StoredJob {
  const job = normalized(record);
  const terms = rankingTerms(record.job_title ?? "", record.job_description);
  return {
    ...job,
    publish_ts: parseDateTime(record.publish_time)!,
    tag_keys: filterKeys(job.job_tags, job.job_description),
    ...annualSalary(job.base_salary),
    ...coordinates(job.city, job.country),
    content_hash: hash,
    ...terms,
    result_json: JSON.stringify({ id: job.id, ...resultFields(job), country: job.country, ...terms, cluster_id: cluster.clusterId }),
    cluster_id: cluster.clusterId,
    // Set when written (store/write.ts): a posting stored before keeps its first time.
    loaded_at: null,
    same_job_sig: encodeSignature(cluster.sig),
    vector,
  };
}

// --- internal ---

function coordinates(city: string | null, country: string | null): { lat: number | null; lon: number | null } {
  const found = locateCity(city, country);
  return { lat: found?.lat ?? null, lon: found?.lon ?? null };
}

function normalized(record: ValidJobRecord) {
  return {
    id: record.id,
    job_title: record.job_title ?? null,
    company_name: record.company_name ?? null,
    city: record.city ?? null,
    country: record.country ?? null,
    publish_time: record.publish_time,
    base_salary: record.base_salary ?? null,
    job_url: record.job_url,
    job_tags: record.job_tags ?? [],
    data_source: record.data_source,
    seniority_level: record.seniority_level ?? null,
    employment_type: record.employment_type ?? null,
    job_description: record.job_description,
  };
}

/** The result fields of job-search-service.md §2.1 but score and description, in its order, unknown ones absent (id goes before them). */
function resultFields(job: ReturnType<typeof normalized>): Omit<JobResult, "score" | "id" | "cluster_id"> {
  return {
    ...present("job_title", job.job_title),
    ...present("city", job.city),
    ...present("company_name", job.company_name),
    publish_time: job.publish_time,
    ...present("base_salary", job.base_salary),
    job_url: job.job_url,
    job_tags: job.job_tags,
    data_source: job.data_source,
    ...present("seniority_level", job.seniority_level),
    ...present("employment_type", job.employment_type),
  };
}

function present<K extends string>(key: K, value: string | null): Partial<Record<K, string>> {
  return value === null || value === "" ? {} : ({ [key]: value } as Record<K, string>);
}
