import { describe, expect, test } from "bun:test";
import { understand, understandingServer } from "../../support/understanding.ts";

/** Misspelled words are corrected from the data's own words, never into or out of a name the data holds. */
const { post } = understandingServer();

describe("spelling", () => {
  test.each([
    ["javasript develoer", "javascript developer"],
    ["elasticsaerch engineers", "elasticsearch engineers"],
    ["kuberneets", "kubernetes"],
  ])("%p → %p", (q, corrected) => {
    expect(understand(q).corrected).toBe(corrected);
  });

  test("never a company or tag name of the data, a word of the knowledge base, or a short word with postings", () => {
    expect(understand("acmex").corrected).toBeNull();
    expect(understand("acmey").corrected).toBe("acme");
    expect(understand("sre").corrected).toBeNull();
  });
});

describe("typo tolerance", () => {
  test("a misspelled word is corrected from the postings' words, and the response says so", async () => {
    const page = await post({ q: "pyhton developer" });
    expect(page.query.corrected).toBe("python developer");
    expect(page.query.hints).toEqual(['searched for "python" instead of "pyhton"']);
    expect(page.results.length).toBeGreaterThan(0);
  });

  test("a rare word the data holds as a company name is never corrected", async () => {
    const page = await post({ q: "pythia" });
    expect(page.query.corrected).toBeNull();
    expect(page.results.map((r) => r.job_url)).toContain("https://jobs.example.com/u0");
  });
});
