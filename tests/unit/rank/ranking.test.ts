import { describe, expect, test } from "bun:test";
import { addDataEvidence, FEATURE_NAMES, features, FIRST_PASS_NAMES, rankingQuery, type Features, type RetrievalEvidence } from "../../../server/rank/features.ts";
import { addFeedback } from "../../../server/rank/feedback.ts";
import { calibratedScore, fusedScore, SCORE_FEATURES } from "../../../server/rank/score.ts";
import { DESCRIPTION_HEAD, rankingTerms, rowTerms, type RowTerms } from "../../../server/text/rank-terms.ts";

/**
 * Ranking on its own: queries and postings built by hand, their features, the fused score that orders
 * candidates, pseudo-relevance feedback, and the calibrated 0–1 score. Orders and ranges are asserted;
 * exact values only where they are exact by construction (shares of whole weights, set flags).
 */

/** Every candidate of a test gets the same retrieval evidence unless it says otherwise, so only the text decides. */
const evidence = (over: Partial<RetrievalEvidence> = {}): RetrievalEvidence => ({
  cosine: 0.5, cosineGap: 0, bm25Share: 0.5, bm25Reciprocal: 0.5, vectorReciprocal: 0.5, ...over,
});
/** A posting's ranking words, as ingest stores them and a search reads them back. */
const postingTerms = (title: string, description = ""): RowTerms => rowTerms(rankingTerms(title, description));
const query = (text: string, weigh: (token: string) => number = () => 1, expansions: Array<{ text: string; weight: number }> = []) =>
  rankingQuery(text.split(/\s+/).filter(Boolean), expansions, text, weigh);
/** Titles ordered best first by the fused score. */
const byFused = (candidates: Array<[string, Features]>) =>
  [...candidates].sort(([, a], [, b]) => fusedScore(b) - fusedScore(a)).map(([title]) => title);

describe("rankingQuery", () => {
  test("folds and de-duplicates the query's words, weighs each, and keeps only expansions that have words", () => {
    const weights: Record<string, number> = { developer: 1, iphon: 4 };
    const q = rankingQuery(["Developers", "developer", "iPhones"], [{ text: "iOS Developer", weight: 0.5 }, { text: "!!!", weight: 0.3 }], "iPhone developers", (t) => weights[t]!);
    expect(q.tokens).toEqual(["developer", "iphon"]);
    expect(q.weights).toEqual([1, 4]);
    expect(q.expansions).toEqual([{ tokens: ["ios", "developer"], weight: 0.5 }]);
    expect(q.cjk).toEqual([]);
  });
});

describe("features and the fused score", () => {
  test("a candidate whose title covers the query outranks one whose text merely mentions it", () => {
    const q = query("python developer");
    const inTitle = features(q, postingTerms("Python Developer", "Build our APIs."), evidence());
    const inText = features(q, postingTerms("Office Manager", "Our developer team writes Python scripts."), evidence());
    expect([inTitle.titleCoverage, inTitle.textCoverage]).toEqual([1, 1]);
    expect([inText.titleCoverage, inText.textCoverage]).toEqual([0, 1]);
    expect(byFused([["Office Manager", inText], ["Python Developer", inTitle]])).toEqual(["Python Developer", "Office Manager"]);
    expect(calibratedScore(fusedScore(inTitle), inTitle)).toBeGreaterThan(calibratedScore(fusedScore(inText), inText));
  });

  test("a CJK word counts as held by the share of its character pairs inside the title's CJK words (no spaces divide them)", () => {
    const q = query("软件测试");
    const within = features(q, postingTerms("软件测试工程师", "负责产品质量。"), evidence());
    const half = features(q, postingTerms("测试开发 / 软件架构师"), evidence());
    const none = features(q, postingTerms("前端开发工程师", "我们的软件测试流程完善。"), evidence());
    expect([within.titleCoverage, within.textCoverage]).toEqual([1, 1]);
    expect(half.titleCoverage).toBe(2 / 3); // 软件 and 测试 of 软件, 件测, 测试
    expect([none.titleCoverage, none.textCoverage]).toEqual([0, 1]);
    expect(byFused([["前端开发工程师", none], ["软件测试工程师", within]])).toEqual(["软件测试工程师", "前端开发工程师"]);
  });

  test("beside Chinese words a Latin one must be held too, written apart or joined to them, and weighs at least as much", () => {
    const weigh = (t: string) => (t === "golang" || t === "go" || t === "scala" ? 1 : 4);
    for (const text of ["scala 数据工程师", "scala数据工程师"]) {
      const q = query(text, weigh);
      const both = features(q, postingTerms("Scala数据工程师"), evidence());
      const chineseOnly = features(q, postingTerms("数据工程师 / 算法工程师"), evidence());
      expect(both.titleCoverage).toBe(1);
      expect(chineseOnly.titleCoverage).toBe(0.5);
      expect(byFused([["数据工程师 / 算法工程师", chineseOnly], ["Scala数据工程师", both]])).toEqual(["Scala数据工程师", "数据工程师 / 算法工程师"]);
    }
  });

  test("a rare word counts more than a common one: coverage is weighted by each word's weight", () => {
    const q = query("python developer", (t) => (t === "python" ? 3 : 1));
    const rare = features(q, postingTerms("Python Engineer"), evidence());
    const common = features(q, postingTerms("Java Developer"), evidence());
    expect(rare.titleCoverage).toBe(0.75);
    expect(common.titleCoverage).toBe(0.25);
    expect(byFused([["Java Developer", common], ["Python Engineer", rare]])).toEqual(["Python Engineer", "Java Developer"]);
  });

  test("a query naming a job: a posting of the same kind without its modifiers misses them, by weight", () => {
    const q = query("rust systems programmer", (t) => (t === "rust" ? 3 : 1));
    expect(q.modifiers).toEqual([1, 1, 0]);
    const named = (title: string, description = "") => features(q, postingTerms(title, description), evidence(), true).modifierMiss;
    expect(named("Systems Programmer")).toBe(0.75);
    expect(named("Programmer")).toBe(1);
    expect(named("Rust Systems Engineer")).toBe(0);
    expect(named("Systems Programmer", "We write Rust.")).toBe(0);
    // Only for a query that names its job (a paraphrase's words need not be in the posting), and never for one word.
    expect(features(q, postingTerms("Programmer"), evidence(), false).modifierMiss).toBe(0);
    expect(query("programmer").modifiers).toEqual([0]);
    const score = (modifierMiss: number) => calibratedScore(1, { ...features(q, postingTerms("Systems Programmer"), evidence(), true), modifierMiss });
    expect(score(1)).toBeLessThan(score(0));
  });

  test("an expansion found whole in the title counts at its weight; only part of it counts nothing", () => {
    const q = query("apps for iphones", () => 1, [{ text: "iOS Developer", weight: 0.5 }]);
    const whole = features(q, postingTerms("Senior iOS Developer"), evidence());
    const part = features(q, postingTerms("iOS Tester"), evidence());
    expect([whole.expansionTitle, whole.expansionText]).toEqual([0.5, 0.5]);
    expect([part.expansionTitle, part.expansionText]).toEqual([0, 0]);
    expect(byFused([["iOS Tester", part], ["Senior iOS Developer", whole]])).toEqual(["Senior iOS Developer", "iOS Tester"]);
  });

  test("only the start of a description is read: a word past DESCRIPTION_HEAD characters covers nothing", () => {
    const q = query("kubernetes");
    const early = features(q, postingTerms("Platform Engineer", "We run Kubernetes. " + "x ".repeat(DESCRIPTION_HEAD)), evidence());
    const late = features(q, postingTerms("Platform Engineer", "x ".repeat(DESCRIPTION_HEAD) + "We run Kubernetes."), evidence());
    expect(early.textCoverage).toBe(1);
    expect(late.textCoverage).toBe(0);
    expect(fusedScore(early)).toBeGreaterThan(fusedScore(late));
  });

  test("better retrieval evidence ranks higher when the text is the same", () => {
    const q = query("nurse");
    const terms = postingTerms("Registered Nurse", "Night shifts.");
    const first = features(q, terms, evidence({ bm25Share: 1, bm25Reciprocal: 1 }));
    const later = features(q, terms, evidence({ bm25Share: 0.2, bm25Reciprocal: 10 / 19 }));
    expect(byFused([["later", later], ["first", first]])).toEqual(["first", "later"]);
  });

  test("a query with no terms: every text feature is 0 (never NaN), so retrieval evidence alone orders", () => {
    for (const q of [query(""), query("!!! ???")]) {
      expect(q.tokens).toEqual([]);
      const a = features(q, postingTerms("Python Developer", "Python."), evidence());
      const b = features(q, postingTerms("Pastry Chef", "Cakes."), evidence());
      for (const f of [a, b]) {
        expect([f.titleCoverage, f.textCoverage, f.expansionTitle, f.expansionText, f.cjkCoverage, f.cjkMismatch]).toEqual([0, 0, 0, 0, 0, 0]);
        expect(Number.isFinite(fusedScore(f))).toBe(true);
      }
      expect(fusedScore(a)).toBe(fusedScore(b));
      const stronger = features(q, postingTerms("Pastry Chef", "Cakes."), evidence({ cosine: 0.9 }));
      expect(fusedScore(stronger)).toBeGreaterThan(fusedScore(b));
    }
  });

  test("a CJK query is matched by character pairs: more of its pairs rank higher, a posting without CJK text is marked", () => {
    const q = query("前端工程师");
    expect(q.cjk).toEqual(["前端", "端工", "工程", "程师"]);
    const exact = features(q, postingTerms("前端工程师", "负责网页开发"), evidence());
    const partial = features(q, postingTerms("高级前端开发工程师", "负责网页开发"), evidence());
    const latin = features(q, postingTerms("Frontend Engineer", "React and TypeScript."), evidence());
    expect([exact.cjkCoverage, partial.cjkCoverage, latin.cjkCoverage]).toEqual([1, 0.75, 0]);
    expect([exact.cjkMismatch, partial.cjkMismatch, latin.cjkMismatch]).toEqual([0, 0, 1]);
    expect(byFused([["latin", latin], ["partial", partial], ["exact", exact]])).toEqual(["exact", "partial", "latin"]);
  });

  test("a query that names a job marks each posting whose title misses it, by the share missing", () => {
    const q = query("bus driver");
    const named = (title: string) => features(q, postingTerms(title), evidence(), true);
    expect([named("Bus Driver").namedMiss, named("School Bus Monitor").namedMiss, named("Accountant").namedMiss]).toEqual([0, 0.5, 1]);
    expect(features(q, postingTerms("Accountant"), evidence(), false).namedMiss).toBe(0);
  });

  test("every feature the scores read is set, the first pass's before the feedback's", () => {
    const f = features(query("python developer"), postingTerms("Python Developer"), evidence());
    for (const name of [...FEATURE_NAMES, ...SCORE_FEATURES]) expect(typeof f[name]).toBe("number");
    expect(FEATURE_NAMES.slice(0, FIRST_PASS_NAMES.length)).toEqual([...FIRST_PASS_NAMES]);
    expect(FEATURE_NAMES.slice(FIRST_PASS_NAMES.length)).toEqual(["feedbackCosine", "feedbackTitle"]);
  });
});

describe("addFeedback", () => {
  test("raises a candidate like the first pass's best above an equal one unlike them", () => {
    const q = query("kubernetes");
    const unit = (axis: number) => Float32Array.from({ length: 4 }, (_, i) => (i === axis ? 1 : 0));
    // More strong candidates than feedback learns from (5), so its examples are all alike.
    const best = Array.from({ length: 8 }, () => {
      const terms = postingTerms("Platform Engineer", "We run Kubernetes.");
      return { features: features(q, terms, evidence({ bm25Share: 1, bm25Reciprocal: 1 })), vector: unit(0), terms };
    });
    const likeTerms = postingTerms("Platform Engineer", "We run servers.");
    const unlikeTerms = postingTerms("Pastry Chef", "We bake cakes.");
    const like = { features: features(q, likeTerms, evidence()), vector: unit(0), terms: likeTerms };
    const unlike = { features: features(q, unlikeTerms, evidence()), vector: unit(1), terms: unlikeTerms };
    expect(fusedScore(like.features)).toBe(fusedScore(unlike.features));

    addFeedback([unlike, ...best, like]);
    expect([like.features.feedbackCosine, like.features.feedbackTitle]).toEqual([1, 1]);
    expect([unlike.features.feedbackCosine, unlike.features.feedbackTitle]).toEqual([0, 0]);
    expect(fusedScore(like.features)).toBeGreaterThan(fusedScore(unlike.features));
    for (const item of best) expect(item.features.feedbackCosine).toBe(1);
  });

  test("does nothing to an empty list", () => {
    expect(() => addFeedback([])).not.toThrow();
  });
});

describe("addDataEvidence", () => {
  test("sets the same evidence of whether the data holds the job on every candidate", () => {
    const q = query("bus driver");
    const items = ["Bus Driver", "Bus Monitor", "Accountant"].map((title) => features(q, postingTerms(title), evidence(), true));
    addDataEvidence(items, true);
    for (const f of items) expect([f.bestTitle, f.namedGap, f.titleHeld]).toEqual([1, 0, 1]);

    const missing = ["Bus Monitor", "Accountant"].map((title) => features(q, postingTerms(title), evidence(), true));
    addDataEvidence(missing, true);
    for (const f of missing) expect([f.bestTitle, f.namedGap, f.titleHeld]).toEqual([0.5, 0.5, 0]);

    const unnamed = ["Bus Monitor"].map((title) => features(q, postingTerms(title), evidence()));
    addDataEvidence(unnamed, false);
    expect(unnamed[0]!.namedGap).toBe(0);
  });

  test("a posting scores higher in a search whose data holds the job than in one whose data does not", () => {
    const q = query("bus driver");
    const monitor = () => features(q, postingTerms("School Bus Monitor"), evidence(), true);
    const held = [monitor(), features(q, postingTerms("Bus Driver"), evidence(), true)];
    const notHeld = [monitor(), features(q, postingTerms("Accountant"), evidence(), true)];
    addDataEvidence(held, true);
    addDataEvidence(notHeld, true);
    expect(fusedScore(held[0]!)).toBe(fusedScore(notHeld[0]!));
    expect(calibratedScore(fusedScore(held[0]!), held[0]!)).toBeGreaterThan(calibratedScore(fusedScore(notHeld[0]!), notHeld[0]!));
  });
});

describe("calibratedScore", () => {
  const q = query("python developer");
  const candidates = [
    features(q, postingTerms("Python Developer", "Build APIs."), evidence()),
    features(q, postingTerms("Office Manager", "Our developer team writes Python."), evidence()),
    features(q, postingTerms("Pastry Chef", "Cakes."), evidence({ cosine: -0.2 })),
  ];
  addDataEvidence(candidates, false);

  test("is in [0, 1] and never falls as the fused score rises, for fixed evidence", () => {
    for (const f of candidates) {
      const scores = Array.from({ length: 81 }, (_, i) => calibratedScore(-20 + i * 0.5, f));
      for (const score of scores) {
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
      }
      for (let i = 1; i < scores.length; i++) expect(scores[i]!).toBeGreaterThanOrEqual(scores[i - 1]!);
      expect(calibratedScore(1, f)).toBeGreaterThan(calibratedScore(-1, f));
    }
  });

  test("saturates at exactly 0 and 1, as the score is rounded to four places", () => {
    for (const f of candidates) {
      expect(calibratedScore(-1000, f)).toBe(0);
      expect(calibratedScore(1000, f)).toBe(1);
    }
  });

  test("reads the posting's own evidence: at the same fused score, a title that holds the query scores higher", () => {
    const [inTitle, inText] = candidates as [Features, Features];
    for (const fused of [-2, 0, 2]) expect(calibratedScore(fused, inTitle)).toBeGreaterThan(calibratedScore(fused, inText));
  });
});
