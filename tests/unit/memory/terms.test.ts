import { describe, expect, test } from "bun:test";
import { TermDictionary } from "../../../server/memory/terms.ts";
import { rankingTerms, rowTerms } from "../../../server/text/rank-terms.ts";
import { detached } from "../../../server/text/detach.ts";

/*
 * The in-memory copy's compact term sets (server/memory/terms.ts) answer as the Sets the LanceDB
 * path builds (text/rank-terms.ts rowTerms): the same size, the same words in the same order, the
 * same `has` for every word of the posting and for words it does not hold.
 */

const POSTINGS: Array<[string, string]> = [
  ["Senior Backend Engineer (Python)", "We build APIs in Python and Go. Python, python, PYTHON: repeats count once."],
  ["前端开发工程师 / Frontend Engineer", "负责前端开发，React 和 TypeScript。远程办公。"],
  ["", ""],
  ["Café Ünïcode Ärzte straße", "naïve façade — ' OR 1=1 -- %_\\ \"quoted\" émigré"],
  ["Data Scientist", Array.from({ length: 300 }, (_, i) => `word${i % 97} term${i}`).join(" ")],
];

describe("compact term sets", () => {
  const dictionary = new TermDictionary();
  // Encoded one after another into one dictionary, as the copy decodes postings.
  const cases = POSTINGS.map(([title, description]) => {
    const terms = rankingTerms(title, description);
    return { title, expected: rowTerms(terms), got: dictionary.encode(terms) };
  });

  test.each(cases.map((c) => [c.title || "(empty)", c] as const))("%s: the same words, order and size as rowTerms", (_, { expected, got }) => {
    for (const kind of ["title", "text", "cjk"] as const) {
      expect([...got[kind]]).toEqual([...expected[kind]]);
      expect(got[kind].size).toBe(expected[kind].size);
    }
  });

  test.each(cases.map((c) => [c.title || "(empty)", c] as const))("%s: has() answers as the Set does, for held and other words", (_, { expected, got }) => {
    const others = ["python", "engineer", "前端", "", "word5", "term299", "nothere", "Python", "café", "cafe"];
    for (const kind of ["title", "text", "cjk"] as const) {
      for (const word of [...expected[kind], ...others]) expect(got[kind].has(word)).toBe(expected[kind].has(word));
    }
  });
});

describe("detached", () => {
  test.each(["", "a", "word", "trailing space ", "  both  ", "\t\n", "前端", "x".repeat(1000)])("keeps the characters of %j", (text) => {
    expect(detached(text)).toBe(text);
  });
});
