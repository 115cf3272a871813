import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as lancedb from "@lancedb/lancedb";
import { buildCorpusVectors, corpusVectorsReader, writeCorpusVectors, type CorpusVectors } from "../server/search/corpus-vectors.ts";
import { rankingTerms, splitRankTerms } from "../server/search/ranking.ts";
import { fold } from "../server/search/text.ts";
import { SHARED_DATA, tempDir } from "./helpers.ts";

/** Every posting's rank_terms, as the store writes them. */
let rankTerms: string[];
/** The `text` half of every 4th posting: ~7,400 real postings from both sources and all years. */
let sample: string[][];
let dir: string;
let vectors: CorpusVectors;
let words: Map<string, Float32Array>;

beforeAll(async () => {
  const lines = new TextDecoder().decode(Bun.gunzipSync(await Bun.file(SHARED_DATA).bytes())).split("\n").filter(Boolean);
  rankTerms = lines.map((line) => {
    const job = JSON.parse(line) as { job_title: string | null; job_description: string };
    return rankingTerms(job.job_title ?? "", job.job_description).rank_terms;
  });
  sample = rankTerms.filter((_, i) => i % 4 === 0).map((terms) => splitRankTerms(terms).text);
  dir = tempDir("corpus-vectors-");
  await buildCorpusVectors(sample, dir);
  vectors = corpusVectorsReader(dir)()!;
  words = new Map();
  for (const word of new Set(sample.flat())) {
    const vector = vectors.embed([word]);
    if (vector) words.set(word, vector);
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("buildCorpusVectors", () => {
  it("writes the same file for the same postings", async () => {
    const again = tempDir("corpus-vectors-");
    try {
      await buildCorpusVectors(sample, again);
      expect(Bun.hash(readFileSync(join(again, "corpus-vectors.bin")))).toBe(Bun.hash(readFileSync(join(dir, "corpus-vectors.bin"))));
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  });

  it("knows this corpus's words, numbers aside", () => {
    expect(vectors.dimension).toBe(128);
    expect(vectors.vocabulary).toBe(words.size);
    for (const word of ["golang", "kubernetes", "devops", "react", "nurse"]) expect(words.has(fold(word))).toBe(true);
    expect(words.has("2016")).toBe(false);
  });

  it.each([
    ["golang", ["go", "rust", "erlang", "scala", "java", "python", "c++", "elixir"]],
    ["ios", ["swift", "android", "iphone", "mobile", "objective-c"]],
    ["react", ["angular", "redux", "javascript", "vue", "typescript"]],
    ["haskell", ["erlang", "ocaml", "clojure", "lisp", "f#", "elixir", "scala"]],
    ["nurse", ["doctor", "patient", "physician", "clinical", "hospital", "clinician", "care"]],
  ])("places %p next to related words", (word, related) => {
    const top = nearest(word, 10);
    expect(top.some((w) => related.includes(w))).toBe(true);
  });

  it("keeps unrelated trades apart", () => {
    const top = nearest("nurse", 30);
    for (const word of ["javascript", "react", "python", "golang"]) expect(top).not.toContain(word);
  });

  it("builds the full data set within the time budget", async () => {
    const full = tempDir("corpus-vectors-");
    try {
      const documents = rankTerms.map((terms) => splitRankTerms(terms).text);
      Bun.gc(true);
      const { vocabulary, dimension, ms } = await buildCorpusVectors(documents, full);
      const file = join(full, "corpus-vectors.bin");
      const loadStart = performance.now();
      const loaded = corpusVectorsReader(full)()!;
      const loadMs = performance.now() - loadStart;
      const posting = documents.find((d) => d.length >= 150)!.slice(0, 150);
      const embedStart = performance.now();
      for (let i = 0; i < 1000; i++) loaded.embed(posting);
      const embedMs = (performance.now() - embedStart) / 1000;
      const rss = Math.round(process.memoryUsage().rss / 1e6);
      console.log(
        `corpus vectors, ${documents.length} postings: ${vocabulary} words × ${dimension} in ${ms} ms; ` +
          `file ${(Bun.file(file).size / 1e6).toFixed(1)} MB, load ${loadMs.toFixed(1)} ms, embed(150 tokens) ${embedMs.toFixed(4)} ms, rss ${rss} MB`,
      );
      expect(vocabulary).toBeGreaterThan(10_000);
      expect(ms).toBeLessThan(60_000);
      expect(loadMs).toBeLessThan(1000);
      expect(embedMs).toBeLessThan(1);
    } finally {
      rmSync(full, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("embed", () => {
  it("returns a unit vector for a posting", () => {
    const vector = vectors.embed(sample[1]!)!;
    expect(vector).toHaveLength(128);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
  });

  it("ignores unknown tokens and returns undefined when none is known", () => {
    expect(vectors.embed([])).toBeUndefined();
    expect(vectors.embed(["qqzzyxnotaword", "2016"])).toBeUndefined();
    expect(vectors.embed(["qqzzyxnotaword", "golang"])).toEqual(vectors.embed(["golang"])!);
  });

  it("weighs a rare word above a common one", () => {
    const mixed = vectors.embed(["the", "golang"])!;
    expect(cosine(mixed, words.get("golang")!)).toBeGreaterThan(cosine(mixed, words.get("the")!));
  });
});

describe("corpusVectorsReader", () => {
  it("is undefined until a build and re-reads after a rebuild", async () => {
    const other = tempDir("corpus-vectors-");
    try {
      const read = corpusVectorsReader(other);
      expect(read()).toBeUndefined();
      await Bun.sleep(1100);
      await buildCorpusVectors(sample.slice(0, 2000), other, { dimension: 32 });
      expect(read()?.dimension).toBe(32);
      await buildCorpusVectors(sample.slice(0, 2000), other, { dimension: 16 });
      expect(read()?.dimension).toBe(32);
      await Bun.sleep(1100);
      expect(read()?.dimension).toBe(16);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("reads a build from no postings as vectors that know no word", async () => {
    const empty = tempDir("corpus-vectors-");
    try {
      expect(await buildCorpusVectors([], empty)).toMatchObject({ vocabulary: 0 });
      expect(corpusVectorsReader(empty)()?.embed(["golang"])).toBeUndefined();
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("writeCorpusVectors", () => {
  it("reads rank_terms from a LanceDB table and builds what buildCorpusVectors builds", async () => {
    const db = tempDir("corpus-vectors-db-");
    try {
      const rows = rankTerms.filter((_, i) => i % 4 === 0).map((rank_terms) => ({ rank_terms }));
      const table = await (await lancedb.connect(db)).createTable("jobs", rows);
      const result = await writeCorpusVectors(table, db);
      expect(result).toMatchObject({ vocabulary: vectors.vocabulary, dimension: 128 });
      expect(Bun.hash(readFileSync(join(db, "corpus-vectors.bin")))).toBe(Bun.hash(readFileSync(join(dir, "corpus-vectors.bin"))));
    } finally {
      rmSync(db, { recursive: true, force: true });
    }
  });
});

// --- internal ---

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

/** The `k` words whose vectors are closest to `word`'s (folded like the store folds it). */
function nearest(word: string, k: number): string[] {
  const query = words.get(fold(word))!;
  return [...words]
    .filter(([w]) => w !== fold(word))
    .map(([w, v]) => ({ w, score: cosine(query, v) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k)
    .map(({ w }) => w);
}
