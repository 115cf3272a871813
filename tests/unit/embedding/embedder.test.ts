import { Tokenizer } from "@huggingface/tokenizers";
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fallbackVector, loadEmbedder, type Embedder } from "../../../server/embedding/embedder.ts";
import { buildStaticModel } from "../../../server/embedding/static-model.ts";
import { TOKENIZER_RULES, VOCABULARY_INDEX, tableTokenizer } from "../../../server/embedding/static-vocabulary.ts";
import { decodeKeyTable, encodeKeyTable } from "../../../server/text/key-table.ts";
// Shared with other test files and kept between runs (git-ignored): the model is built once.
import { MODELS_DIR } from "../../support/helpers.ts";

/** One build reads the 307 MB word-vector file: ~4 s here, more on a cold disk. */
const BUILD_TIMEOUT = 60_000;

let embedder: Embedder;

beforeAll(async () => {
  embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
}, BUILD_TIMEOUT);

describe("static model build", () => {
  // One build for both tests: each reads the 307 MB word-vector file, most of a build's time, and what
  // the second checked of a build of its own (a folder replaced in place) holds of this one too.
  let root: string;
  let built: Awaited<ReturnType<typeof buildStaticModel>>;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "embedder-build-"));
    await Bun.write(join(root, "a", "stale.txt"), "from an older build");
    built = await buildStaticModel(join(root, "a"));
  }, BUILD_TIMEOUT);
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("produces the same bytes on every build, with nothing left behind", async () => {
    // Against the build beforeAll found or made (another process, another time): same version, same bytes.
    const kept = join(MODELS_DIR, "static-glove-100d");
    expect(built).toMatchObject({ words: 200_000, dimension: 100 });
    for (const file of ["onnx/model.onnx", "tokenizer.json", "tokenizer_config.json", "config.json", "jobsearch-model.json", TOKENIZER_RULES, VOCABULARY_INDEX]) {
      expect(await sha256(join(root, "a", file))).toBe(await sha256(join(kept, file)));
    }
    // fp16 table of 200,002 rows × 100 dims, plus under 1 kB of graph.
    expect(Bun.file(join(root, "a", "onnx/model.onnx")).size - 2 * 100 * 200_002).toBeWithin(0, 1000);
    expect(await readdir(root)).toEqual(["a"]);
  });

  it("replaces an existing folder in place", async () => {
    // The folder held stale.txt before the build.
    expect(await readdir(root)).toEqual(["a"]);
    expect((await readdir(join(root, "a"))).sort()).toEqual([
      "config.json",
      "jobsearch-model.json",
      "onnx",
      TOKENIZER_RULES,
      "tokenizer.json",
      "tokenizer_config.json",
      VOCABULARY_INDEX,
    ].sort());
  });
});

describe("static embedder", () => {
  it("reports its id and dimension", () => {
    expect(embedder.modelId).toBe("static-glove-100d");
    expect(embedder.dimension).toBe(100);
  });

  it("returns unit-length vectors, also for texts longer than the token limit", async () => {
    const long = "experienced welder wanted for shipyard work ".repeat(300);
    const vectors = await embedder.embedDocuments(["senior backend engineer python", long, "Résumé writer!"]);
    for (const vector of [...vectors, await embedder.embedQuery("nurse")]) {
      expect(vector.length).toBe(100);
      expect(Math.abs(norm(vector) - 1)).toBeLessThan(1e-5);
    }
  });

  it.each(["", "   ", "前端工程师", "zzzqqq xxyyzz", "\u0000"])("gives the fallback vector, not NaN, for %p", async (text) => {
    const vector = await embedder.embedQuery(text);
    expect(vector.some(Number.isNaN)).toBe(false);
    expect([...vector]).toEqual([...fallbackVector(100)]);
  });

  it("keeps each document's vector in its place across batches and blank texts", async () => {
    const texts = Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? "" : `job number ${i} ${"nurse ".repeat(i % 5)}`));
    const vectors = await embedder.embedDocuments(texts);
    expect(vectors.length).toBe(300);
    for (const i of [0, 1, 6, 7, 150, 299]) expect([...vectors[i]!]).toEqual([...(await embedder.embedQuery(texts[i]!))]);
  });

  it("embeds from its word table exactly as its inference graph does", async () => {
    // The same folder under another id runs through transformers.js's pipeline and onnxruntime.
    const root = await mkdtemp(join(tmpdir(), "embedder-graph-"));
    try {
      const copy = join(root, "glove-graph");
      await cp(join(MODELS_DIR, "static-glove-100d"), copy, { recursive: true });
      const manifest = join(copy, "jobsearch-model.json");
      await Bun.write(manifest, JSON.stringify({ ...(await Bun.file(manifest).json()), id: "glove-graph" }));
      const graph = await loadEmbedder({ model: copy, allowRemote: false, modelsDir: MODELS_DIR });
      const texts = [
        "Senior Backend Engineer. Senior Backend Engineer. We build payment APIs in Go and Python, on Kubernetes.",
        "registered nurse, night shift (hospital) — Résumé welcome; naïve café",
        "数据工程师 data engineer 北京",
        "welder ".repeat(700),
        "",
        "zzzqqq",
      ];
      const [table, graphed] = [await embedder.embedDocuments(texts), await graph.embedDocuments(texts)];
      expect(table.map((v) => [...v])).toEqual(graphed.map((v) => [...v]));
      expect([...(await embedder.embedQuery("rust developer"))]).toEqual([...(await graph.embedQuery("rust developer"))]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, BUILD_TIMEOUT);

  it("looks every word up in its vocabulary table as the tokenizer's own Map does", async () => {
    const dir = join(MODELS_DIR, "static-glove-100d");
    const spec = await Bun.file(join(dir, "tokenizer.json")).json();
    const words = Object.keys(spec.model.vocab);
    expect(words.length).toBe(200_002);
    const full = new Tokenizer(spec, await Bun.file(join(dir, "tokenizer_config.json")).json());
    const table = await tableTokenizer(dir);
    // Every word, as written and as the capitalised texts below look it up ("NURSEs" → "nurses", mostly
    // no word): the table answers as the Map.
    const [mine, theirs] = [lookups(table), lookups(full)];
    const keys = [...words, ...words.map((w) => `${w}s`)];
    expect(keys.filter((key) => mine.get(key) !== theirs.get(key) || mine.has(key) !== theirs.has(key))).toEqual([]);
    // And through encode, which reads the words only through that lookup: a thousand words to a text, as
    // written and capitalised, every tenth thousand (the lookup of all of them through encode took 7 s of
    // the suite, nearly all of it the library's normalising and splitting, the same code in both); then
    // what no word is.
    const texts: string[] = [];
    for (let i = 0; i < words.length; i += 10_000) {
      const some = words.slice(i, i + 1000);
      texts.push(some.join(" "), some.map((w) => w.toUpperCase() + "s").join(" "));
    }
    texts.push("[UNK] [PAD] ##ing Résumé naïve café Straße İstanbul", "数据工程师 data engineer 北京", "a".repeat(101), "x".repeat(100), "emoji 🚀 tab\tnul\u0000");
    for (const text of texts) expect(table.encode(text).ids).toEqual(full.encode(text).ids);
  }, BUILD_TIMEOUT);

  it("keeps a key table's keys and nothing else, at any byte offset", () => {
    const words = ["[PAD]", "[UNK]", "nurse", "nurses", "", "数据", "a".repeat(300), "é", "e\u0301"];
    const bytes = encodeKeyTable(words);
    const shifted = new Uint8Array(bytes.length + 2);
    shifted.set(bytes, 2);
    for (const table of [decodeKeyTable(bytes, "test"), decodeKeyTable(shifted.subarray(2), "test")]) {
      expect(table.size).toBe(words.length);
      words.forEach((word, id) => expect(table.get(word)).toBe(id));
      for (const absent of ["nurs", "nursess", "Nurse", "数", "a".repeat(299), "e"]) expect(table.has(absent)).toBe(false);
    }
    expect(() => decodeKeyTable(new Uint8Array(64), "x.bin")).toThrow(/x.bin is not a table of keys/);
  });

  it("refuses a damaged vocabulary table, saying how to rebuild the model", async () => {
    const root = await mkdtemp(join(tmpdir(), "embedder-vocabulary-"));
    try {
      await cp(join(MODELS_DIR, "static-glove-100d"), root, { recursive: true });
      const table = Bun.file(join(root, VOCABULARY_INDEX));
      await Bun.write(join(root, VOCABULARY_INDEX), (await table.bytes()).subarray(0, 4096));
      await expect(tableTokenizer(root)).rejects.toThrow(`vocabulary.bin is not a table of keys: rebuild the model by deleting ${root}`);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("places related texts closer than unrelated ones", async () => {
    const [query, related, unrelated] = await embedder.embedDocuments([
      "senior backend engineer python",
      "python developer for server side",
      "registered nurse night shift hospital",
    ]);
    expect(dot(query!, related!)).toBeGreaterThan(dot(query!, unrelated!) + 0.2);
  });
});

describe("model resolution", () => {
  it("loads a local model folder by path, with the id from its jobsearch-model.json", async () => {
    const local = await loadEmbedder({ model: join(MODELS_DIR, "static-glove-100d"), allowRemote: false, modelsDir: MODELS_DIR });
    expect(local.modelId).toBe("static-glove-100d");
    expect([...(await local.embedQuery("nurse"))]).toEqual([...(await embedder.embedQuery("nurse"))]);
  });

  it("refuses a hub id without EMBEDDING_ALLOW_REMOTE and says what to set", async () => {
    const empty = await mkdtemp(join(tmpdir(), "embedder-empty-"));
    try {
      const load = loadEmbedder({ model: "Xenova/bge-small-en-v1.5", allowRemote: false, modelsDir: empty });
      await expect(load).rejects.toThrow(/EMBEDDING_ALLOW_REMOTE=true.*EMBEDDING_MODEL at a local model folder/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it("loads a model once per process, saying so each time; a failed load is tried again", async () => {
    const said: string[] = [];
    const again = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR }, (line) => said.push(line));
    expect(again).toBe(embedder);
    expect(said).toEqual(["embedding model static-glove-100d loaded (100 dims, mean pooling)"]);
    const root = await mkdtemp(join(tmpdir(), "embedder-later-"));
    try {
      const later = { model: join(root, "copy"), allowRemote: false, modelsDir: MODELS_DIR };
      await expect(loadEmbedder(later)).rejects.toThrow(/not found/);
      await cp(join(MODELS_DIR, "static-glove-100d"), join(root, "copy"), { recursive: true });
      expect((await loadEmbedder(later)).dimension).toBe(100);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

// --- internal ---

async function sha256(path: string): Promise<string> {
  return new Bun.CryptoHasher("sha256").update(await Bun.file(path).arrayBuffer()).digest("hex");
}

/** The word lookup of a tokenizer's WordPiece model (tableTokenizer replaces it). */
function lookups(tokenizer: Tokenizer): { get(key: string): number | undefined; has(key: string): boolean } {
  return (tokenizer as unknown as { model: { tokens_to_ids: { get(key: string): number | undefined; has(key: string): boolean } } }).model.tokens_to_ids;
}

function dot(a: Float32Array, b: Float32Array): number {
  return a.reduce((sum, x, i) => sum + x * b[i]!, 0);
}

function norm(vector: Float32Array): number {
  return Math.sqrt(dot(vector, vector));
}
