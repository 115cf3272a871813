import { describe, expect, it, test } from "bun:test";
import { contentKeys } from "../server/text/query-tokens.ts";
import { hasCjk } from "../server/text/fold.ts";
import { OCCUPATIONS } from "../server/relevance/knowledge/occupations.ts";
import { analyzeQuery } from "../server/understand/occupations.ts";

const ids = (query: string) => analyzeQuery(query).occupations.map((o) => o.id);

describe("analyzeQuery: occupations", () => {
  test.each([
    // Paraphrases: the query never names the job.
    ["apps for iPhones", "ios-developer"],
    ["protect our systems from hackers", "security-engineer"],
    ["teach computers to see", "computer-vision-engineer"],
    ["people who manage payroll", "payroll-specialist"],
    ["someone to write marketing emails", "email-marketing-specialist"],
    ["analyze data to find insights", "data-analyst"],
    ["fix leaking pipes", "plumber"],
    ["drive trucks long distance", "truck-driver"],
    ["take care of elderly people at home", "caregiver"],
    ["find bugs before release", "qa-engineer"],
    ["train neural networks", "machine-learning-engineer"],
    ["defend clients in court", "lawyer"],
    ["write documentation for our apis", "technical-writer"],
    ["keep the books for a small company", "bookkeeper"],
    ["someone to fix computers for our employees", "it-support-specialist"],
    ["deploy ml models to production", "mlops-engineer"],
    ["write smart contracts on ethereum", "blockchain-developer"],
    ["make cars drive themselves", "autonomous-driving-engineer"],
    // Keywords that name the job, a skill or a short form.
    ["ios developer", "ios-developer"],
    ["nurse night shift", "registered-nurse"],
    ["golang", "golang-developer"],
    ["Senior Front-End Engineer (React)", "frontend-developer"],
    ["c++ developer", "cpp-developer"],
    [".NET developer", "dotnet-developer"],
    ["node.js", "nodejs-developer"],
    ["SRE", "site-reliability-engineer"],
    ["help desk", "it-support-specialist"],
    ["people operations manager", "hr-manager"],
    ["contract manager", "contract-manager"],
    ["IT manager", "it-manager"],
    ["machine learning engineer", "machine-learning-engineer"],
    ["data scientist", "data-scientist"],
  ])("%p → %p first", (query, expected) => {
    expect(ids(query)[0]).toBe(expected);
  });

  test.each([
    ["keep the servers running at night", ["site-reliability-engineer", "system-administrator"]],
    ["kubernetes terraform", ["platform-engineer", "devops-engineer", "site-reliability-engineer"]],
    ["make websites look good", ["web-designer", "frontend-developer", "ui-designer"]],
    ["cook in a restaurant", ["chef", "cook"]],
    ["golang", ["golang-developer", "backend-developer"]],
  ])("%p → first among %p", (query, expected) => {
    expect(expected).toContain(ids(query)[0]!);
  });

  it("is most sure when the query names the job", () => {
    const named = analyzeQuery("ios developer").occupations[0]!;
    const paraphrase = analyzeQuery("apps for iPhones").occupations[0]!;
    expect(named.confidence).toBeGreaterThanOrEqual(0.9);
    expect(paraphrase.confidence).toBeGreaterThan(0.5);
    expect(paraphrase.confidence).toBeLessThan(named.confidence);
  });

  it("keeps a seniority or contract word out of the evidence but inside a title", () => {
    expect(ids("contract java developer")[0]).toBe("java-developer");
    expect(analyzeQuery("senior data engineer remote").occupations[0]).toMatchObject({ id: "data-engineer", confidence: 1 });
  });

  it("doubts a one-word query that fits many jobs equally", () => {
    for (const occupation of analyzeQuery("sales").occupations) expect(occupation.confidence).toBeLessThan(0.6);
  });
});

describe("analyzeQuery: Chinese", () => {
  test.each([
    ["前端工程师", "frontend-developer"],
    ["后端开发", "backend-developer"],
    ["产品经理", "product-manager"],
    ["测试工程师", "qa-engineer"],
    ["运维工程师", "devops-engineer"],
    ["数据分析师", "data-analyst"],
    ["算法工程师", "machine-learning-engineer"],
    ["UI设计师", "ui-designer"],
    ["招聘高级前端开发工程师", "frontend-developer"],
    ["iOS开发工程师", "ios-developer"],
    ["渗透测试工程师", "penetration-tester"],
  ])("%p → %p", (query, expected) => {
    const analysis = analyzeQuery(query);
    expect(analysis.occupations[0]!.id).toBe(expected);
    expect(analysis.occupations[0]!.confidence).toBeGreaterThan(0.8);
    expect(analysis.expansions.length).toBeGreaterThan(3);
    for (const expansion of analysis.expansions) expect(hasCjk(expansion.text)).toBe(false);
  });

  it("keeps the Chinese text as one term and expands with English titles and skills", () => {
    const analysis = analyzeQuery("前端工程师");
    expect(analysis.terms).toEqual(["前端工程师"]);
    expect(analysis.expansions.map((e) => e.text)).toEqual(expect.arrayContaining(["Frontend Developer", "javascript", "react"]));
  });

  test.each([
    ["UI设计师", ["ui设计师"]],
    ["北京 产品经理 实习", ["北京 产品经理 实习"]],
    ["c端产品经理", ["c端产品经理"]],
    ["react 前端 vue", ["react", "前端", "vue"]],
  ])("keeps each piece of Chinese text whole: %p → %p", (query, expected) => {
    expect(analyzeQuery(query).terms).toEqual(expected);
  });

  it("does not read the letter in c端 as the C language", () => {
    expect(ids("c端产品经理")).toEqual(["product-manager"]);
  });

  it("reads English and Chinese side by side", () => {
    const analysis = analyzeQuery("java 后端开发");
    expect(analysis.terms).toEqual(["java", "后端开发"]);
    expect(ids("java 后端开发").slice(0, 2).sort()).toEqual(["backend-developer", "java-developer"]);
  });
});

describe("analyzeQuery: terms", () => {
  test.each([
    ["looking for someone to build iPhone apps", ["build", "iphone", "apps"]],
    ["I want a job as a nurse", ["nurse"]],
    ["We need a Python developer!", ["python", "developer"]],
    ["people who manage payroll", ["manage", "payroll"]],
    ["Senior iOS developer, iOS developer", ["senior", "ios", "developer"]],
    ["help desk technician", ["helpdesk", "technician"]],
    ["people who work in people operations", ["people", "operations"]],
    ["C++ and C# developers for .NET / Node.js", ["c++", "c#", "developers", ".net", "node.js"]],
    ["front-end engineer", ["frontend", "engineer"]],
    ["e-commerce on-call", ["ecommerce", "oncall"]],
    ["Café barista", ["cafe", "barista"]],
    ["looking for a job", ["looking", "job"]],
    ["!!!", []],
  ])("%p → %p", (query, expected) => {
    expect(analyzeQuery(query).terms).toEqual(expected);
  });
});

describe("analyzeQuery: expansions", () => {
  it("expands a paraphrase with the occupation's titles and top skills", () => {
    const texts = analyzeQuery("apps for iPhones").expansions.map((e) => e.text);
    expect(texts).toEqual(expect.arrayContaining(["iOS Developer", "swift", "objective-c"]));
  });

  it("never repeats the query's own words", () => {
    const texts = analyzeQuery("golang").expansions.map((e) => e.text.toLowerCase());
    expect(texts).not.toContain("golang");
    expect(analyzeQuery("ios developer").expansions.map((e) => e.text)).not.toContain("iOS Developer");
  });

  it("weighs down the synonyms of a job the query already names", () => {
    const named = analyzeQuery("site reliability engineer").expansions;
    const paraphrase = analyzeQuery("keep the servers running at night").expansions;
    expect(Math.max(...named.map((e) => e.weight))).toBeLessThan(Math.max(...paraphrase.map((e) => e.weight)));
  });
});

describe("analyzeQuery: no match", () => {
  test.each(["asdf qwerty", "the and of", "12345", "looking for a job", "", "   "])("%p has no occupations or expansions", (query) => {
    expect(analyzeQuery(query)).toMatchObject({ occupations: [], expansions: [] });
  });
});

describe("analyzeQuery: invariants", () => {
  const queries = variedQueries(1000);

  it("keeps every output within its contract", () => {
    for (const query of queries) {
      const { terms, occupations, expansions } = analyzeQuery(query);
      if (/[\p{L}\p{N}]/u.test(query)) expect(terms.length).toBeGreaterThan(0);
      expect(new Set(terms).size).toBe(terms.length);
      expect(occupations.length).toBeLessThanOrEqual(3);
      expect(expansions.length).toBeLessThanOrEqual(12);
      for (const { confidence } of occupations) expect(confidence > 0 && confidence <= 1).toBe(true);
      for (const { weight } of expansions) expect(weight > 0 && weight <= 1).toBe(true);
      expect(occupations.map((o) => o.confidence)).toEqual(occupations.map((o) => o.confidence).sort((a, b) => b - a));
      expect(expansions.map((e) => e.weight)).toEqual(expansions.map((e) => e.weight).sort((a, b) => b - a));
      for (const { text } of expansions) expect(terms).not.toContain(text.toLowerCase());
    }
  });

  it("is deterministic, whatever came before", () => {
    const first = queries.slice(0, 50).map(analyzeQuery);
    queries.slice(50, 200).forEach(analyzeQuery);
    expect(queries.slice(0, 50).map(analyzeQuery)).toEqual(first);
  });

  it("analyzes 1,000 varied queries well under a second", () => {
    queries.slice(0, 100).forEach(analyzeQuery);
    const start = performance.now();
    for (const query of queries) analyzeQuery(query);
    const ms = performance.now() - start;
    console.log(`analyzeQuery: 1,000 queries in ${ms.toFixed(1)} ms (${((ms * 1000) / queries.length).toFixed(0)} µs each)`);
    expect(ms).toBeLessThan(1000);
  });
});

describe("knowledge base", () => {
  it("has hundreds of occupations with unique kebab-case ids", () => {
    expect(OCCUPATIONS.length).toBeGreaterThanOrEqual(250);
    const all = OCCUPATIONS.map((o) => o.id);
    expect(new Set(all).size).toBe(all.length);
    for (const id of all) expect(id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  it("gives every entry at least 2 titles, 2 phrases and 3 skills, none empty or repeated", () => {
    for (const { id, titles, phrases, skills } of OCCUPATIONS) {
      expect({ id, titles: titles.length >= 2, phrases: phrases.length >= 2, skills: skills.length >= 3 }).toEqual({
        id,
        titles: true,
        phrases: true,
        skills: true,
      });
      for (const list of [titles, phrases, skills]) {
        for (const text of list) expect(text.trim() === text && text !== "").toBe(true);
        expect(new Set(list.map((t) => t.toLowerCase())).size).toBe(list.length);
      }
      for (const text of [...phrases, ...skills]) expect(text).toBe(text.toLowerCase());
    }
  });

  it("gives each title to one occupation only, however it is spelled", () => {
    const owner = new Map<string, string>();
    for (const { id, titles } of OCCUPATIONS) {
      for (const title of titles) {
        const key = hasCjk(title) ? title.toLowerCase().replace(/\s+/g, "") : contentKeys(title, true).join(" ");
        expect(key).not.toBe("");
        const other = owner.get(key);
        if (other !== undefined && other !== id) throw new Error(`"${title}" of ${id} is also a title of ${other}`);
        owner.set(key, id);
      }
    }
  });

  it("has Chinese titles for the common tech roles", () => {
    const chinese = new Set(OCCUPATIONS.flatMap((o) => o.titles.filter(hasCjk)));
    for (const title of ["前端工程师", "前端开发", "后端开发", "产品经理", "测试工程师", "运维工程师", "数据分析师", "算法工程师", "UI设计师"]) {
      expect(chinese.has(title)).toBe(true);
    }
  });
});

// --- internal ---

/** Deterministic mix of titles, plain-words phrases, skills, filler, Chinese and noise from the knowledge base. */
function variedQueries(count: number): string[] {
  const fillers = ["", "looking for ", "someone to ", "I want a job as a ", "we need people who ", "senior ", "remote "];
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    const occupation = OCCUPATIONS[(i * 7919) % OCCUPATIONS.length]!;
    const pick = <T>(list: T[]) => list[(i * 31) % list.length]!;
    const filler = fillers[i % fillers.length]!;
    const variants = [
      filler + pick(occupation.titles),
      filler + pick(occupation.phrases),
      `${pick(occupation.skills)} ${pick(OCCUPATIONS[(i * 13) % OCCUPATIONS.length]!.skills)}`,
      `${pick(occupation.phrases)} in Berlin, part-time!`,
      `xq${i} zzv${i % 97}`,
    ];
    out.push(variants[i % variants.length]!);
  }
  return out;
}
