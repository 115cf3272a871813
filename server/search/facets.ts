import type { FacetName } from "../../shared/search-params.ts";
import type { FacetCounts } from "../../shared/search.ts";
import { annualSalary } from "../salary/salary.ts";
import type { JobRow, StoreReader } from "../store/store.ts";

/*
 * Counts over the postings a search matches (see search.ts: every filter, a score at least the
 * facets' threshold, reposts collapsed, within FACET_DEPTH candidates per retriever). Each facet lists
 * its values most first (ties by value), at most FACET_VALUES of them; month is every month in
 * order, salary every bucket in order.
 */

/** Values a facet lists (the most used ones). */
export const FACET_VALUES = 20;
/** Width of a salary bucket, annual USD; the last bucket is open ("300000+"). */
export const SALARY_BUCKET = 25_000;
const SALARY_TOP = 300_000;

/** The counts of each of `names` over `rows`; `checkpoint` is awaited between facets (the fair queue's pause). */
export async function countFacets(
  store: Pick<StoreReader, "countries">, rows: JobRow[], names: FacetName[], checkpoint: () => Promise<void> = async () => {},
): Promise<FacetCounts> {
  // Rows loaded before result_json held the country (undefined there) are looked up.
  const unknown = names.includes("country") ? rows.filter((row) => row.country === undefined).map((row) => row.id) : [];
  const countries = unknown.length > 0 ? await store.countries(unknown) : new Map<string, string | null>();
  const out: FacetCounts = {};
  for (const name of names) {
    await checkpoint();
    const counts = new Map<string, number>();
    for (const row of rows) {
      for (const value of valuesOf(name, row, countries)) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    const list = [...counts].map(([value, count]) => ({ value, count }));
    out[name] = name === "month" || name === "salary"
      ? list.sort((a, b) => order(name, a.value) - order(name, b.value) || (a.value < b.value ? -1 : 1))
      : list.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1)).slice(0, FACET_VALUES);
  }
  return out;
}

/** The salary bucket of an annual USD amount: "100000-125000", or "300000+". */
export function salaryBucket(usd: number): string {
  if (usd >= SALARY_TOP) return `${SALARY_TOP}+`;
  const low = Math.floor(usd / SALARY_BUCKET) * SALARY_BUCKET;
  return `${low}-${low + SALARY_BUCKET}`;
}

// --- internal ---

/** What a posting counts under in a facet (tags: each distinct tag, lowercased; salary: its range's midpoint). */
function valuesOf(name: FacetName, row: JobRow, countries: Map<string, string | null>): string[] {
  switch (name) {
    case "city":
      return row.city ? [row.city] : [];
    case "country": {
      const country = row.country === undefined ? countries.get(row.id) : row.country;
      return country ? [country] : [];
    }
    case "source":
      return [row.data_source];
    case "seniority":
      return row.seniority_level ? [row.seniority_level] : [];
    case "employment_type":
      return row.employment_type ? [row.employment_type] : [];
    case "remote":
      return [String(row.job_tags.some((tag) => tag.toLowerCase() === "remote"))];
    case "tags":
      return [...new Set(row.job_tags.map((tag) => tag.toLowerCase()))];
    case "month":
      return [row.publish_time.slice(0, 7)];
    case "salary": {
      const { salary_min_usd: min, salary_max_usd: max } = annualSalary(row.base_salary ?? null);
      return min === null || max === null ? [] : [salaryBucket((min + max) / 2)];
    }
  }
}

function order(name: FacetName, value: string): number {
  if (name === "month") return 0;
  return value.endsWith("+") ? Number.MAX_SAFE_INTEGER : Number.parseInt(value, 10);
}
