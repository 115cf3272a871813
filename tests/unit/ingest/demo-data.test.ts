import { describe, expect, it } from "bun:test";
import catalog from "../../../data/demo/catalog.json";
import { generateDemoPostings } from "../../../server/demo/generate.ts";
import { JobRecordSchema } from "../../../shared/job.ts";

const postings = generateDemoPostings();
const LEVELS = ["intern", "junior", "mid", "senior", "lead", "director", "executive"];
const EMPLOYMENT = ["FULL_TIME", "PART_TIME", "CONTRACTOR", "INTERN"];
const COUNTRIES: Record<string, { currency: string }> = catalog.countries;

/** Share of postings for which `test` holds. */
function share(test: (p: (typeof postings)[number]) => boolean): number {
  return postings.filter(test).length / postings.length;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

describe("generateDemoPostings", () => {
  it("returns deep-equal postings for the same count and seed", () => {
    expect(generateDemoPostings()).toEqual(postings);
    expect(generateDemoPostings(50, 7)).toEqual(generateDemoPostings(50, 7));
    expect(generateDemoPostings(50, 8)).not.toEqual(generateDemoPostings(50, 7));
  });

  it("matches a fixed snapshot of postings 0 and 1,234 on every machine and day", () => {
    expect(postings[0]).toEqual({
      id: "demo-000000", job_title: "Data Scientist", company_name: "Mendwise", city: "San Francisco", country: "US",
      publish_time: "2026-06-29 18:22:24", base_salary: "132500.00-164500.00 USD/YEAR",
      job_url: "https://www.linkedin.com/jobs/view/4000000170", job_tags: ["Python", "Machine Learning", "Pandas", "A/B Testing", "remote"],
      data_source: "linkedin", seniority_level: null, employment_type: "FULL_TIME", job_description: expect.any(String),
    });
    expect(postings[0]?.job_description.length).toBe(483);
    expect(postings[1234]).toMatchObject({
      id: "demo-001234", job_title: "Solutions Architect", company_name: "Cindermoth Games", city: "San Francisco",
      publish_time: "2026-06-07 06:09:49", job_url: "https://www.indeed.com/viewjob?jk=d986a801c42308e4", base_salary: null,
    });
  });

  it("generates 2,400 postings with unique ids and urls", () => {
    const fresh = generateDemoPostings();
    expect(fresh).toHaveLength(2400);
    expect(new Set(fresh.map((p) => p.id)).size).toBe(2400);
    expect(new Set(fresh.map((p) => p.job_url)).size).toBe(2400);
    expect(generateDemoPostings(10)).toHaveLength(10);
  });

  it("uses every catalog city and title, at least 30 cities in at least 8 countries", () => {
    const cities = new Set(postings.map((p) => p.city));
    expect(cities.size).toBe(catalog.cities.length);
    expect(cities.size).toBeGreaterThanOrEqual(30);
    expect(new Set(postings.map((p) => p.country)).size).toBeGreaterThanOrEqual(8);
    const baseTitles = new Set(postings.map((p) => p.job_title.replace(/^(Junior|Senior|Lead) /, "").replace(/ Intern$/, "")));
    expect(baseTitles).toEqual(new Set(catalog.titles.map((t) => t.title)));
    expect(new Set(postings.map((p) => p.company_name)).size).toBeGreaterThanOrEqual(60);
  });

  it("splits postings about evenly between indeed and linkedin", () => {
    expect(share((p) => p.data_source === "indeed")).toBeWithin(0.45, 0.55);
    expect(share((p) => p.data_source === "linkedin")).toBeWithin(0.45, 0.55);
  });

  it("keeps optional fields near their target shares", () => {
    expect(share((p) => p.base_salary !== null)).toBeWithin(0.55, 0.65);
    expect(share((p) => p.seniority_level !== null)).toBeWithin(0.65, 0.75);
    expect(share((p) => p.employment_type !== null)).toBeWithin(0.75, 0.85);
  });

  it.each([42, 1, 2026])("gives every field a valid value (seed %d)", (seed) => {
    for (const p of generateDemoPostings(2400, seed)) {
      expect(JobRecordSchema.safeParse(p).success).toBe(true);
      expect(p.id).toMatch(/^demo-\d{6}$/);
      expect(p.publish_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(p.publish_time >= "2026-05-05 00:00:00" && p.publish_time < "2026-11-01 00:00:00").toBe(true);
      expect(p.country).toMatch(/^[A-Z]{2}$/);
      if (p.base_salary !== null) {
        expect(p.base_salary).toMatch(/^\d+\.\d{2}-\d+\.\d{2} [A-Z]{3}\/(YEAR|MONTH|HOUR)$/);
        const [min = "", max = ""] = p.base_salary.split(" ")[0]?.split("-") ?? [];
        expect(Number(min)).toBeLessThanOrEqual(Number(max));
        expect(p.base_salary.split(" ")[1]?.slice(0, 3)).toBe(COUNTRIES[p.country]?.currency);
      }
      const url = p.data_source === "indeed" ? /^https:\/\/www\.indeed\.com\/viewjob\?jk=[0-9a-f]{16}$/ : /^https:\/\/www\.linkedin\.com\/jobs\/view\/\d{10}$/;
      expect(p.job_url).toMatch(url);
      expect(p.job_tags.length).toBeGreaterThanOrEqual(3);
      if (p.seniority_level !== null) expect(LEVELS).toContain(p.seniority_level);
      if (p.employment_type !== null) expect(EMPLOYMENT).toContain(p.employment_type);
      expect(p.job_description.length).toBeWithin(400, 1501);
      expect(p.job_description.match(/[.!?](?=\s|$)/g)?.length).toBeWithin(3, 9);
      expect(p.job_description).not.toMatch(/[{}]/);
    }
  });

  it("puts seniority prefixes in titles only when seniority_level says so", () => {
    for (const p of postings) {
      const prefix = /^(Junior|Senior|Lead) /.exec(p.job_title)?.[1]?.toLowerCase();
      if (prefix) expect(p.seniority_level).toBe(prefix);
      if (p.job_title.endsWith(" Intern")) expect(p.seniority_level).toBe("intern");
      if (p.seniority_level === "intern") expect(p.job_tags).toContain("internship");
      if (p.seniority_level === "intern" && p.employment_type) expect(p.employment_type).toBe("INTERN");
    }
  });

  it("pays more at each higher seniority level (yearly US salaries)", () => {
    const medianMin = (level: string) =>
      median(postings.filter((p) => p.seniority_level === level && p.base_salary?.endsWith("USD/YEAR")).map((p) => Number.parseFloat(p.base_salary ?? "")));
    const ladder = ["junior", "mid", "senior", "lead", "director", "executive"].map(medianMin);
    expect(ladder).toEqual([...ladder].sort((a, b) => a - b));
  });
});

describe("demo catalog", () => {
  it("has at least 60 titles and companies and 36 cities in 10 countries", () => {
    expect(catalog.titles.length).toBeGreaterThanOrEqual(60);
    expect(new Set(catalog.companies.map((c) => c.name)).size).toBeGreaterThanOrEqual(60);
    expect(new Set(catalog.cities.map((c) => c.name)).size).toBeGreaterThanOrEqual(36);
    expect(new Set(catalog.cities.map((c) => c.country)).size).toBeGreaterThanOrEqual(10);
  });

  it("gives every city its country's code and currency", () => {
    for (const city of catalog.cities) {
      expect(city.country).toMatch(/^[A-Z]{2}$/);
      expect(COUNTRIES[city.country]?.currency).toBe(city.currency);
    }
  });

  it("gives every title tags, 2–4 duties and requirements, known levels and a hiring company", () => {
    const sectors = new Set(catalog.companies.map((c) => c.sector));
    for (const t of catalog.titles) {
      expect(t.tags.length).toBeGreaterThanOrEqual(4);
      expect(t.duties.length).toBeWithin(2, 5);
      expect(t.requirements.length).toBeWithin(2, 5);
      for (const level of t.levels) expect(LEVELS).toContain(level);
      // A plain title stands for mid level, so titles that take a prefix must offer it.
      if (!("prefix" in t)) expect(t.levels).toContain("mid");
      expect(t.sectors.some((s) => s === "any" || sectors.has(s))).toBe(true);
    }
  });
});
