import { describe, expect, it, test } from "bun:test";
import { hasCjk } from "../../../server/text/fold.ts";
import { analyzeQuery } from "../../../server/understand/occupation/occupations.ts";

/** analyzeQuery's occupations and expansions: paraphrases, keywords and Chinese titles lead to the job the query means. */
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
