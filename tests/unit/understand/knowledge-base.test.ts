import { describe, expect, it } from "bun:test";
import { contentKeys } from "../../../server/text/query-tokens.ts";
import { hasCjk } from "../../../server/text/fold.ts";
import { OCCUPATIONS } from "../../../server/knowledge/knowledge.ts";

/** The occupations knowledge base: ids, titles, phrases and skills, each title owned by one occupation. */
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
