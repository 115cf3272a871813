import { beforeAll, describe, expect, it } from "bun:test";
import { loadEmbedder, type Embedder } from "../../../server/embedding/embedder.ts";
import { understandQuery, withOccupationsByMeaning } from "../../../server/understand/understand.ts";
import { MODELS_DIR } from "../../support/helpers.ts";

/** Occupations found by what a query means (understand/occupation/meaning-match.ts), with the real offline model. */
let embedder: Embedder;
beforeAll(async () => {
  embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
}, 120_000);

const byMeaning = (query: string) => {
  const byWords = understandQuery(query, {});
  return withOccupationsByMeaning(byWords, embedder).then((understood) => ({ byWords, understood }));
};

describe("withOccupationsByMeaning", () => {
  it("finds the occupation a description of its work means when no word of it is a title's", async () => {
    const { byWords, understood } = await byMeaning("mend broken water pipes under kitchen floors");
    expect(byWords.occupations).toEqual([]);
    expect(understood.occupations[0]?.id).toBe("plumber");
    expect(understood.occupations[0]!.confidence).toBeLessThan(0.95);
    expect(understood.namesJob).toBe(false);
    expect(understood.expansions.map((e) => e.text)).toContain("Plumber");
    expect(understood.terms).toEqual(byWords.terms);
  });

  it("makes an occupation the words found only faintly surer when the meaning agrees", async () => {
    const { byWords, understood } = await byMeaning("pour pints and mix cocktails behind the counter");
    const before = byWords.occupations.find((o) => o.id === "bartender")!.confidence;
    expect(understood.occupations[0]?.id).toBe("bartender");
    expect(understood.occupations[0]!.confidence).toBeGreaterThan(before);
  });

  it("leaves a query that names its job as the words understood it", async () => {
    for (const query of ["python developer", "senior data engineer", "registered nurse night shifts"]) {
      const { byWords, understood } = await byMeaning(query);
      expect(understood).toBe(byWords);
    }
  });

  it("adds no occupation to words about no job", async () => {
    for (const query of ["the weather was lovely and we walked along the beach yesterday", "qwxz zzkq vvbn"]) {
      const { byWords, understood } = await byMeaning(query);
      expect(understood.occupations).toEqual(byWords.occupations);
      expect(understood.expansions).toEqual(byWords.expansions);
    }
  });

  it("is deterministic, whatever was asked before", async () => {
    const first = await byMeaning("mend broken water pipes under kitchen floors");
    await byMeaning("fly passenger jets between cities");
    expect((await byMeaning("mend broken water pipes under kitchen floors")).understood).toEqual(first.understood);
  });
});
