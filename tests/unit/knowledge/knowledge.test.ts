import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as knowledge from "../../../server/knowledge/knowledge.ts";
import { KNOWLEDGE_DIR, KNOWLEDGE_FINGERPRINT, OCCUPATIONS, loadKnowledge, type Occupation } from "../../../server/knowledge/knowledge.ts";
import { compactText, keptTokens, queryTokens } from "../../../server/text/query-tokens.ts";
import { buildOccupationIndex } from "../../../server/understand/occupation/occupation-index.ts";
import { matchOccupations } from "../../../server/understand/occupation/occupation-match.ts";
import { WEIGHTS_MATCH_KNOWLEDGE } from "../../../server/rank/score.ts";
import { copyWith, loadError, removeCopies } from "../../support/knowledge-copy.ts";

/**
 * The job-domain knowledge base is data (server/knowledge/*.json) checked at load: the default folder
 * loads, adding an occupation is editing one data file, and every rule of the schema rejects a broken
 * copy (real files in a temp dir) with a message naming the file and the entry. Places, notions and
 * currency rates: knowledge-places.test.ts.
 */
afterAll(removeCopies);

describe("the default knowledge", () => {
  test("loads every field file and word list, and the exports are its values", () => {
    const loaded = loadKnowledge(KNOWLEDGE_DIR);
    expect(loaded.OCCUPATIONS.length).toBeGreaterThan(400);
    expect(loaded.OCCUPATIONS).toEqual([...OCCUPATIONS]);
    const fields: Array<{ field: string }> = JSON.parse(readFileSync(join(KNOWLEDGE_DIR, "fields.json"), "utf8")).fields;
    const perField = fields.map(({ field }) => JSON.parse(readFileSync(join(KNOWLEDGE_DIR, "occupations", `${field}.json`), "utf8")).length);
    expect(perField.reduce((sum, n) => sum + n, 0)).toBe(OCCUPATIONS.length);
    for (const name of ["STOP_WORDS", "FILLER_WORDS", "ALIAS", "COMPOUNDS", "IT_JOB_WORDS", "EVERYDAY_WORDS", "MODIFIER_WORDS", "GENERIC", "IRREGULAR"] as const) {
      expect(loaded[name]).toEqual(knowledge[name]);
    }
    for (const name of ["GO_BEFORE", "GO_AFTER", "KEEP_E"] as const) {
      expect(knowledge[name]).toBeInstanceOf(Set);
      expect([...loaded[name]]).toEqual([...knowledge[name]]);
    }
    expect(loaded.fingerprint).toBe(KNOWLEDGE_FINGERPRINT);
    expect(KNOWLEDGE_FINGERPRINT).toMatch(/^[0-9a-f]{16}$/);
  });

  test("an occupation's shape is exactly id, titles, phrases and skills (marks stay in the files)", () => {
    for (const occupation of OCCUPATIONS) expect(Object.keys(occupation)).toEqual(["id", "titles", "phrases", "skills"]);
  });

  test("the fingerprint follows the content, not the layout or the descriptions", () => {
    const reformatted = copyWith({ "words.json": (json) => (json.about.STOP_WORDS = "Reworded.") });
    expect(loadKnowledge(reformatted).fingerprint).toBe(KNOWLEDGE_FINGERPRINT);
    const edited = copyWith({ "words.json": (json) => json.STOP_WORDS.push("hmm") });
    expect(loadKnowledge(edited).fingerprint).not.toBe(KNOWLEDGE_FINGERPRINT);
  });

  test("the committed ranking weights were fitted on this knowledge", () => {
    expect(
      WEIGHTS_MATCH_KNOWLEDGE,
      `server/rank/weights.json records another knowledge fingerprint than ${KNOWLEDGE_FINGERPRINT}: ` +
        "the knowledge changed since the weights were fitted; refit them with `bun bench/calibrate.ts --write` and commit the result",
    ).toBe(true);
  });
});

describe("adding an occupation is editing one data file", () => {
  const BEEKEEPER: Occupation = {
    id: "beekeeper",
    titles: ["Beekeeper", "Apiarist", "Apiary Technician", "养蜂人"],
    phrases: ["keep honey bees and harvest honey", "look after bee hives", "breed queen bees"],
    skills: ["hive inspection", "honey extraction", "varroa mite control", "queen rearing"],
  };
  /** The occupations a query matches, by id, best first (as analyzeQuery finds them). */
  const matcher = (occupations: readonly Occupation[]) => {
    const index = buildOccupationIndex(occupations);
    return (query: string) => {
        const keys = keptTokens(queryTokens(query), index.titlePairs).filter((t) => t.kind !== "cjk").map((t) => t.key);
      const cjk = /\p{Script=Han}/u.test(query) ? compactText(query) : "";
      return matchOccupations(index, keys, () => false, cjk).map((m) => occupations[m.occupation]!.id);
    };
  };

  test("a copy with one more occupation in trades.json loads it and the occupation index matches it", () => {
    const dir = copyWith({ "occupations/trades.json": (json: Occupation[]) => json.push(BEEKEEPER) });
    const loaded = loadKnowledge(dir);
    expect(loaded.OCCUPATIONS).toHaveLength(OCCUPATIONS.length + 1);
    expect(matcher(OCCUPATIONS)("apiarist")).toEqual([]);
    const matches = matcher(loaded.OCCUPATIONS);
    for (const query of ["apiarist", "beekeeper jobs", "someone to look after bee hives", "养蜂人"]) {
      expect(matches(query)[0], query).toBe("beekeeper");
    }
    // The rest of the knowledge is untouched: the same occupations in the same order, the new one last of its field.
    const at = loaded.OCCUPATIONS.findIndex((o) => o.id === "beekeeper");
    expect([...loaded.OCCUPATIONS.slice(0, at), ...loaded.OCCUPATIONS.slice(at + 1)]).toEqual([...OCCUPATIONS]);
    expect(loaded.OCCUPATIONS[at - 1]!.id).toBe(lastOf("trades"));
  });
});

function lastOf(field: string): string {
  const list: Occupation[] = JSON.parse(readFileSync(join(KNOWLEDGE_DIR, "occupations", `${field}.json`), "utf8"));
  return list.at(-1)!.id;
}

describe("each rule of the schema rejects a broken copy, naming the file and the entry", () => {
  const TRADES = "occupations/trades.json";
  const SOFTWARE = "occupations/software.json";
  const at = (list: Occupation[], id: string) => list.find((o) => o.id === id)!;

  test("a duplicate id", () => {
    const message = loadError(copyWith({ [TRADES]: (json: Occupation[]) => (at(json, "plumber").id = "software-engineer") }));
    expect(message).toContain(`${TRADES} › entry`);
    expect(message).toContain('(id "software-engineer") › id "software-engineer": is also the id of entry 0 in occupations/software.json');
  });

  test("an id that is not kebab-case", () => {
    const message = loadError(copyWith({ [TRADES]: (json: Occupation[]) => (at(json, "plumber").id = "Plumber") }));
    expect(message).toContain(`${TRADES} › entry`);
    expect(message).toContain('id "Plumber": must be kebab-case');
  });

  test("an uppercase skill (titles keep their case)", () => {
    const message = loadError(copyWith({ [SOFTWARE]: (json: Occupation[]) => (at(json, "frontend-developer").skills[2] = "React") }));
    expect(message).toContain(`${SOFTWARE} › entry 1 (id "frontend-developer") › skills[2] "React": must be lowercase`);
    expect(message).toContain("(1 problem)");
  });

  test("empty titles, an empty string and a duplicate within a list", () => {
    const message = loadError(
      copyWith({
        [TRADES]: (json: Occupation[]) => {
          at(json, "plumber").titles = [];
          at(json, "electrician").phrases.push("");
          at(json, "electrician").skills.push(at(json, "electrician").skills[0]!);
        },
      }),
    );
    expect(message).toContain('(id "plumber") › titles: is empty');
    expect(message).toMatch(/\(id "electrician"\) › phrases\[\d+\] "": is empty/);
    expect(message).toMatch(/\(id "electrician"\) › skills\[\d+\] "[^"]+": is a duplicate of \[0\]/);
  });

  test("a misspelt key is an error, not a silently missing list", () => {
    const message = loadError(copyWith({ [TRADES]: (json: Occupation[]) => ((at(json, "plumber") as Occupation & { skils?: string[] }).skils = ["pipe fitting"]) }));
    expect(message).toMatch(/occupations\/trades\.json › entry \d+ \(id "plumber"\): Unrecognized key: "skils"/);
  });

  test("a title of two occupations", () => {
    const message = loadError(copyWith({ [TRADES]: (json: Occupation[]) => at(json, "plumber").titles.push("software engineer") }));
    expect(message).toMatch(/\(id "plumber"\) › titles\[\d+\] "software engineer": is also a title of "software-engineer" \(occupations\/software\.json\)/);
  });

  test("a phrase claimed by two occupations unmarked, or marked by one only; marked by both it loads", () => {
    const phrase = OCCUPATIONS.find((o) => o.id === "software-engineer")!.phrases[0]!;
    const claim = (mark: boolean) => (json: Occupation[]) => {
      const plumber = at(json, "plumber") as Occupation & { shared_phrases?: string[] };
      // The same claim, however punctuated: "write-code for a living".
      plumber.phrases.push(phrase.replace(" ", "-"));
      if (mark) plumber.shared_phrases = [plumber.phrases.at(-1)!];
    };
    const unmarked = loadError(copyWith({ [TRADES]: claim(false) }));
    expect(unmarked).toContain("(2 problems)");
    expect(unmarked).toContain(`${SOFTWARE} › entry 0 (id "software-engineer") › phrases[0] "${phrase}": is also a phrase of "plumber" (${TRADES})`);
    expect(unmarked).toMatch(/\(id "plumber"\) › phrases\[\d+\] "[^"]+": is also a phrase of "software-engineer" \(occupations\/software\.json\): reword it, or list it in "shared_phrases" of each/);

    const oneSide = loadError(copyWith({ [TRADES]: claim(true) }));
    expect(oneSide).toContain("(1 problem)");
    expect(oneSide).toContain(`${SOFTWARE} › entry 0 (id "software-engineer") › phrases[0]`);

    const markSoftware = (json: any[]) => (json[0].shared_phrases = [phrase]);
    const both = copyWith({ [TRADES]: claim(true), [SOFTWARE]: markSoftware });
    expect(loadError(both)).toBe("");
    expect(loadKnowledge(both).OCCUPATIONS.find((o) => o.id === "plumber")).not.toHaveProperty("shared_phrases");
  });

  test("a mark on a phrase no other occupation has", () => {
    const message = loadError(copyWith({ [SOFTWARE]: (json: any[]) => (json[0].shared_phrases = [json[0].phrases[1]]) }));
    expect(message).toContain(`${SOFTWARE} › entry 0 (id "software-engineer") › shared_phrases[0]`);
    expect(message).toContain("is a phrase of no other occupation: remove the mark");
  });

  test("word lists: an uppercase term, an uppercase map key, a duplicate", () => {
    const message = loadError(
      copyWith({
        "words.json": (json) => {
          json.STOP_WORDS.push("The");
          json.ALIAS.Nodejs = "node.js";
          json.KEEP_E.push(json.KEEP_E[0]);
        },
      }),
    );
    expect(message).toContain(`words.json › STOP_WORDS[${knowledge.STOP_WORDS.length}] "The": must be lowercase`);
    expect(message).toContain('words.json › ALIAS: key "Nodejs" must be lowercase');
    expect(message).toContain(`words.json › KEEP_E[${knowledge.KEEP_E.size}] "${[...knowledge.KEEP_E][0]}": is a duplicate of [0]`);
  });

  test("a field file that fields.json does not list, and a listed one that is missing", () => {
    const dir = copyWith({ "fields.json": (json) => json.fields.push({ field: "space", about: "Astronauts." }) });
    writeFileSync(join(dir, "occupations/extra.json"), "[]\n");
    const message = loadError(dir);
    expect(message).toContain("fields.json › fields[17].field \"space\": names occupations/space.json, which does not exist");
    expect(message).toContain("occupations/extra.json: is not listed in fields.json");
  });

  test("a file that is not JSON", () => {
    const dir = copyWith();
    writeFileSync(join(dir, TRADES), "[{");
    expect(loadError(dir)).toStartWith(`${join(dir, TRADES)} is not valid JSON`);
  });
});
