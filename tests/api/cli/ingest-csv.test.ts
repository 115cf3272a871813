/**
 * `cli ingest` of CSV files end to end: the real CLI ingests tests/support/fixtures/jobspy.csv and a
 * generic CSV with --map into a temp DATA_DIR that a real server then searches.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { JOBSPY_CSV, runCli, startTestServer, tempDir, type TestServer } from "../../support/helpers.ts";

describe("end to end: the CLI ingests CSV files that a real server then searches", () => {
  let dataDir: string;
  let t: TestServer;
  let ingested: Awaited<ReturnType<typeof runCli>>;
  let generic: Awaited<ReturnType<typeof runCli>>;
  let genericFile: string;

  const GENERIC = [
    "\ufeffTitle,Employer,Link,Posted,Where,Source,Text,Tags,Pay",
    'Barista,"Bean & Leaf, Ltd.",https://jobs.example/bean/1,2026-05-03T09:00:00Z,"Manchester, England, United Kingdom",careers-page,"Make coffee, ""properly"".\r\nEarly shifts.","coffee, customer service",11.50-13.00 GBP/HOUR',
    "Line Cook,Osteria Nord,https://jobs.example/osteria/2,2026-05-04,\"Munich, Bavaria, Germany\",careers-page,Prep and cook pasta for 80 covers.,cooking,",
    "Sous Chef,Osteria Nord,https://jobs.example/osteria/3,2026-05-05,Munich,careers-page,Run the pass on weekends.,,lots of money",
  ].join("\r\n");

  beforeAll(async () => {
    dataDir = tempDir();
    ingested = await runCli(["ingest", JOBSPY_CSV], { DATA_DIR: dataDir });
    genericFile = join(dataDir, "export.csv");
    await Bun.write(genericFile, GENERIC);
    const maps = ["job_title=Title", "company_name=Employer", "job_url=Link", "publish_time=Posted", "location=Where", "data_source=Source", "job_description=Text", "job_tags=Tags", "base_salary=Pay"];
    generic = await runCli(["ingest", genericFile, ...maps.flatMap((map) => ["--map", map])], { DATA_DIR: dataDir });
    t = await startTestServer({ dataDir });
  });
  afterAll(() => t?.stop());

  async function search(body: Record<string, unknown>) {
    const response = await fetch(`${t.url}/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": t.apiKey },
      body: JSON.stringify({ top_k: 100, ...body }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { total: number; results: Record<string, any>[] };
  }

  async function posting(jobUrl: string, body: Record<string, unknown>) {
    const { results } = await search({ detail: "full", ...body });
    const found = results.find((result) => result.job_url === jobUrl);
    if (!found) throw new Error(`${jobUrl} not found among ${results.map((r) => r.job_url).join(", ")}`);
    return found;
  }

  test("the JobSpy ingest names the bad CSV lines and ends with the usual summary line", () => {
    expect(ingested.code).toBe(0);
    expect(ingested.stderr).toContain("format: jobspy (JobSpy's columns in the header");
    expect(ingested.stderr).toContain('skipped line 30: site must be indeed or linkedin, not "glassdoor"');
    expect(ingested.stderr).toContain("skipped line 31: description is empty (for LinkedIn, scrape with linkedin_fetch_description=True)");
    expect(ingested.stdout).toMatch(/^ingested 13 new, 0 updated, 2 skipped in \d+\.\d s \(\d+\/s\)$/m);
  });

  test("re-running is a no-op and --strict writes nothing, as for JSONL", async () => {
    const again = await runCli(["ingest", JOBSPY_CSV], { DATA_DIR: dataDir });
    expect(again.stdout).toMatch(/^ingested 0 new, 0 updated, 15 skipped in /m);
    const strict = await runCli(["ingest", "--strict", "--format", "jobspy", JOBSPY_CSV], { DATA_DIR: dataDir });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("skipped line 30: site must be indeed or linkedin");
    expect(strict.stderr).toContain("error [FAILED]: 2 invalid record(s); --strict given, nothing was written");
  });

  test("both sites are searchable as data sources", async () => {
    expect((await search({ q: "job", source: "indeed" })).total).toBe(7);
    expect((await search({ q: "job", source: "linkedin" })).total).toBe(6);
  });

  test("a multi-line posting keeps every mapped field, its quotes, line breaks and backslashes", async () => {
    const job = await posting("https://www.indeed.com/viewjob?jk=3f2a9c41d07b5e16", { q: "backend engineer python", city: "San Francisco", country: "US" });
    expect(job).toMatchObject({
      job_title: "Senior Backend Engineer (Python)", company_name: "Northwind Analytics", city: "San Francisco",
      publish_time: "2026-05-02 00:00:00", base_salary: "165000.00-210000.00 USD/YEAR", data_source: "indeed",
      employment_type: "FULL_TIME", job_tags: ["Python", "PostgreSQL", "AWS", "fulltime"],
    });
    expect(job.seniority_level).toBeUndefined();
    expect(job.job_description).toStartWith("**About the role**\n\nNorthwind Analytics");
    expect(job.job_description).toContain('design the "ingest" and pricing APIs');
    expect(job.job_description).toContain("tested code \\- we review");
  });

  test.each([
    ["https://www.linkedin.com/jobs/view/4013550127", { q: "frontend react developer", country: "DE" },
      { city: "Berlin", company_name: "Brightpath GmbH", base_salary: "60000.00-75000.00 EUR/YEAR", seniority_level: "mid", data_source: "linkedin" }],
    ["https://www.linkedin.com/jobs/view/4009934418", { q: "machine learning engineer", country: "GB" },
      { city: "London", base_salary: "70000.00-90000.00 GBP/YEAR", seniority_level: "senior" }],
    ["https://ca.indeed.com/viewjob?jk=0d9e8f7a6b5c4d3e", { q: "devops kubernetes", country: "CA" },
      { city: "Toronto", base_salary: "95000.00-120000.00 CAD/YEAR", employment_type: "FULL_TIME", job_tags: ["fulltime", "contract"] }],
    ["https://in.indeed.com/viewjob?jk=a4b5c6d7e8f90123", { q: "site reliability", country: "IN" },
      { city: "Bengaluru", base_salary: "2500000.00-4000000.00 INR/YEAR" }],
    ["https://au.indeed.com/viewjob?jk=f0e1d2c3b4a59687", { q: "chef", country: "AU" },
      { city: "Sydney", company_name: "Harbour & Vine", base_salary: "95000.00-110000.00 AUD/YEAR" }],
    ["https://www.linkedin.com/jobs/view/4011120934", { q: "product manager payments", country: "NL" },
      { city: "Amsterdam", seniority_level: "director", publish_time: "2026-04-25 00:00:00" }],
    ["https://www.indeed.com/viewjob?jk=8b71e0c2a95d4f03", { q: "registered nurse", city: "Austin", country: "US" },
      { base_salary: "42.50-55.00 USD/HOUR", employment_type: "PART_TIME", job_tags: ["parttime"] }],
    ["https://www.linkedin.com/jobs/view/4015501288", { q: "software intern", city: "Seattle", country: "US" },
      { base_salary: "7000.00-8000.00 USD/MONTH", employment_type: "INTERN", seniority_level: "intern" }],
    ["https://www.indeed.com/viewjob?jk=71a6b3c8d2e4f590", { q: "warehouse", city: "Columbus", country: "US" },
      { base_salary: "17.00-17.00 USD/HOUR" }],
  ])("%s is found with its country or city filter and mapped", async (jobUrl, query, expected) => {
    expect(await posting(jobUrl, query)).toMatchObject(expected);
  });

  test("a row without salary has no base_salary; remote rows and state-only locations have no city", async () => {
    const lumen = await posting("https://www.linkedin.com/jobs/view/4012867395", { q: "data engineer spark", city: "New York" });
    expect(lumen.base_salary).toBeUndefined();
    expect(lumen).toMatchObject({ seniority_level: "senior", employment_type: "FULL_TIME", data_source: "linkedin" });
    const parcelly = await posting("https://www.indeed.com/viewjob?jk=c5d0e7f1b2a39648", { q: "customer support" });
    expect(parcelly.city).toBeUndefined();
    expect(parcelly.job_tags).toEqual(["fulltime", "remote"]);
    const orchid = await posting("https://www.linkedin.com/jobs/view/4016678012", { q: "data scientist", country: "US" });
    expect(orchid.city).toBeUndefined();
    expect(orchid.job_tags).toContain("remote");
  });

  test("a generic CSV with --map: BOM, CRLF, quoted fields, location and ISO times mapped; a bad salary is named by line", async () => {
    expect(generic.code).toBe(0);
    expect(generic.stderr).toContain("format: csv");
    expect(generic.stderr).toContain("skipped line 5: base_salary must look like 120000.00-150000.00 USD/YEAR");
    expect(generic.stdout).toMatch(/^ingested 2 new, 0 updated, 1 skipped in /m);
    const barista = await posting("https://jobs.example/bean/1", { q: "barista coffee", country: "GB", source: "careers-page" });
    expect(barista).toMatchObject({
      job_title: "Barista", company_name: "Bean & Leaf, Ltd.", city: "Manchester", publish_time: "2026-05-03 09:00:00",
      base_salary: "11.50-13.00 GBP/HOUR", job_tags: ["coffee", "customer service"], data_source: "careers-page",
      job_description: 'Make coffee, "properly".\nEarly shifts.',
    });
    const cook = await posting("https://jobs.example/osteria/2", { q: "line cook pasta", city: "Munich", country: "DE" });
    expect(cook).toMatchObject({ company_name: "Osteria Nord", job_tags: ["cooking"] });
    expect(cook.base_salary).toBeUndefined();
  });

  test("command-line mistakes exit 2; a CSV the columns do not fit exits 1 before loading anything", async () => {
    const wrongMap = await runCli(["ingest", JOBSPY_CSV, "--map", "city=location"], { DATA_DIR: dataDir });
    expect(wrongMap.code).toBe(2);
    expect(wrongMap.stderr).toContain("--map applies to --format csv only");
    const wrongFormat = await runCli(["ingest", JOBSPY_CSV, "--format", "xml"], { DATA_DIR: dataDir });
    expect(wrongFormat.code).toBe(2);
    expect(wrongFormat.stderr).toContain('--format must be one of jsonl, json, csv, jobspy, not "xml"');
    const unknownField = await runCli(["ingest", genericFile, "--map", "salary=Pay"], { DATA_DIR: dataDir });
    expect(unknownField.code).toBe(2);
    expect(unknownField.stderr).toContain('unknown field "salary"');
    const unmapped = await runCli(["ingest", genericFile], { DATA_DIR: dataDir });
    expect(unmapped.code).toBe(1);
    expect(unmapped.stderr).toContain("error [FAILED]: no column for job_url, publish_time, data_source, job_description");
    expect(unmapped.stderr).not.toContain("embedding model");
  });
});
