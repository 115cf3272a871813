import { describe, expect, test } from "bun:test";
import { findPlaces, placeIndex } from "../../../server/places/in-query.ts";
import { foldedWords } from "../../../server/text/fold.ts";
import { contentKeys, queryTokens } from "../../../server/text/query-tokens.ts";
import { nameWords, SPELLED_WORD, writtenWords } from "../../../server/text/words.ts";

/** The ways text becomes words (server/text/), each named for what differs. */
describe("words", () => {
  test("a word that names a property of every object folds to itself, in postings and in queries", () => {
    const words = ["constructor", "toString", "hasOwnProperty", "valueOf", "__proto__"];
    for (const word of words) {
      for (const folded of foldedWords(word)) expect(typeof folded).toBe("string");
      for (const token of queryTokens(word)) expect(typeof token.key).toBe("string");
    }
    expect(foldedWords("constructor jobs")).toEqual(["constructor", "job"]);
  });

  test("a city of the data named like such a property is a place like any other", () => {
    const index = placeIndex({ cityCounts: [{ city: "constructor", country: "US", postings: 9 }], located: new Set(["constructor"]) });
    expect(findPlaces("nurse in constructor", index, () => 0, () => false)).toEqual([
      { start: 6, end: 20, phrase: "in constructor", filters: { city: "constructor" }, confident: true },
    ]);
  });

  test("spelling reads only plain words of two letters or more: not c++ or words with digits (of node.js, only js)", () => {
    const found = [..."javasript c++ node.js k8s go html5 develoer".matchAll(SPELLED_WORD)].map((m) => m[0]);
    expect(found).toEqual(["javasript", "js", "go", "develoer"]);
  });

  test("the knowledge base's words as written keep c++, c# and node.js whole", () => {
    expect(writtenWords("C++ and C# with Node.js")).toEqual(["c++", "and", "c#", "with", "node.js"]);
  });

  test("a place name's words keep inner dots and apostrophes and say where they stand", () => {
    expect(nameWords("jobs in St. John's")).toEqual([
      { word: "jobs", start: 0, end: 4 },
      { word: "in", start: 5, end: 7 },
      { word: "St.", start: 8, end: 11 },
      { word: "John's", start: 12, end: 18 },
    ]);
  });
});

describe("query tokens: go the language, go the verb", () => {
  const keys = (text: string) => contentKeys(text);
  test.each([
    ["backend engineer, mainly Go and Python", true],
    ["I write Go every day", true],
    ["go/rust engineer", true],
    ["java or go", true],
    ["go developer", true],
    ["written in go", true],
    ["Go find me a job", false],
    ["let's go find a job. Go see", false],
    ["go and apply", false],
  ])("%p: the language %p", (text, language) => {
    expect(keys(text).includes("golang")).toBe(language);
  });
});
