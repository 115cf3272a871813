import { describe, expect, it, test } from "bun:test";
import { OCCUPATIONS } from "../../../server/knowledge/knowledge.ts";
import { analyzeQuery } from "../../../server/understand/occupation/occupations.ts";

/** analyzeQuery's terms, and the contract of its output over 1,000 varied queries: bounds, order, determinism, speed. */
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
    const first = queries.slice(0, 50).map((q) => analyzeQuery(q));
    queries.slice(50, 200).forEach((q) => analyzeQuery(q));
    expect(queries.slice(0, 50).map((q) => analyzeQuery(q))).toEqual(first);
  });

  // Its speed is measured by bench/relevance/understanding.ts, not asserted here: a busy machine is no failure.
  it("analyzes 1,000 varied queries, each with its terms", () => {
    for (const query of queries) expect(analyzeQuery(query).terms.length > 0 || !/[\p{L}\p{N}]/u.test(query)).toBe(true);
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
