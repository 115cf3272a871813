import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, isAbsolute, join, resolve } from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";
import {
  STATIC_BUILD_VERSION,
  STATIC_MODEL_ID,
  buildStaticModel,
  type ModelManifest,
} from "./static-model.ts";
import { readStaticTable } from "./static-table.ts";
import { tableTokenizer } from "./static-vocabulary.ts";

export interface EmbeddingSettings {
  /** "static" (the offline model), a local model folder path, or a hub id like "Xenova/bge-small-en-v1.5". */
  model: string;
  /** Only then may a hub id be downloaded. */
  allowRemote: boolean;
  /** Where the static model is built and where models (including downloaded ones) are looked up. */
  modelsDir: string;
}

export interface Embedder {
  /** Stable id recorded in the store: "static-glove-100d", the manifest id, the folder name or the hub id. */
  readonly modelId: string;
  readonly dimension: number;
  /** Unit length, never NaN; a text with no known word gets {@link fallbackVector}. */
  embedQuery(text: string): Promise<Float32Array>;
  /** Same guarantees as embedQuery, one vector per text in order; batched internally. */
  embedDocuments(texts: string[]): Promise<Float32Array[]>;
}

/**
 * Loads the configured embedding model. "static" is built under `modelsDir` first when missing or stale
 * (seconds, never downloads). A hub id is only downloaded when `allowRemote`; otherwise, unless it is already
 * in `modelsDir`, this throws an Error telling the operator what to set. A process loads a model once: the
 * same settings again give the same embedder (embedders hold no state), as when tests start many servers.
 */
export async function loadEmbedder(settings: EmbeddingSettings, log: (msg: string) => void = () => {}): Promise<Embedder> {
  const key = JSON.stringify([settings.model, settings.allowRemote, resolve(settings.modelsDir)]);
  const known = loaded.get(key);
  if (known) {
    const { embedder, message } = await known;
    log(message);
    return embedder;
  }
  const loading = load(settings, log);
  loaded.set(key, loading);
  // A failed load is not kept: the next call tries again (a model copied in meanwhile, a setting fixed).
  return loading.then(({ embedder }) => embedder, (error: unknown) => {
    loaded.delete(key);
    throw error;
  });
}

/** Loaded models by their settings, with the line that said so. */
const loaded = new Map<string, Promise<{ embedder: Embedder; message: string }>>();

async function load(settings: EmbeddingSettings, log: (msg: string) => void): Promise<{ embedder: Embedder; message: string }> {
  const source = await resolveModel(settings, log);
  const model = source.table === undefined ? await inferenceModel(source, settings) : await tableModel(source.path, source.table);
  const { queryPrefix, documentPrefix } = source.profile;
  const run = (texts: string[], prefix: string) => embedAll(model, texts, prefix);
  const message = `embedding model ${source.modelId} loaded (${model.dimension} dims, ${source.profile.pooling} pooling)`;
  log(message);
  const embedder: Embedder = {
    modelId: source.modelId,
    dimension: model.dimension,
    embedQuery: async (text) => (await run([text], queryPrefix))[0]!,
    embedDocuments: (texts) => run(texts, documentPrefix),
  };
  return { embedder, message };
}

/**
 * The vector given to texts the model cannot place (empty, or only unknown words such as Chinese text for
 * the static model): every component 1/√d. It is a fixed unit vector, so such texts still store and are
 * found by keyword search; they are equally (un)related to everything semantically.
 */
export function fallbackVector(dimension: number): Float32Array {
  return new Float32Array(dimension).fill(1 / Math.sqrt(dimension));
}

// --- internal ---

/** Texts per model call: large enough to amortise the call, small enough to bound padding and memory. */
const BATCH_SIZE = 128;
/** Tokens per text: BERT-style models cannot take more, and some tokenizer configs do not say so. */
const MAX_TOKENS = 512;
/** Characters kept per text before tokenizing: ~4× MAX_TOKENS of English, the rest would be cut anyway. */
const MAX_CHARS = 4096;
const BGE_QUERY_PREFIX = "Represent this sentence for searching relevant passages: ";

type Pooling = "mean" | "cls";
/** Embeds one batch of non-blank texts, one unit vector each. */
interface BatchModel {
  dimension: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}
interface TensorLike {
  data: ArrayLike<number | bigint>;
  dims: number[];
}
/** The parts of a feature-extraction pipeline used here (transformers.js types them loosely). */
interface Extractor {
  tokenizer: (texts: string[], options: { padding: boolean; truncation: boolean; max_length: number }) => {
    attention_mask: TensorLike;
  };
  model: (inputs: unknown) => Promise<Record<string, TensorLike | undefined>>;
}

interface Profile {
  pooling: Pooling;
  queryPrefix: string;
  documentPrefix: string;
}

interface ModelSource {
  modelId: string;
  /** An absolute folder, or a hub id when `remote`. */
  path: string;
  remote: boolean;
  profile: Profile;
  /** The offline model's manifest: embedded from its table, without an inference session. */
  table?: ModelManifest;
}

async function resolveModel(settings: EmbeddingSettings, log: (msg: string) => void): Promise<ModelSource> {
  const { model, modelsDir } = settings;
  if (model === "static") {
    const dir = resolve(modelsDir, STATIC_MODEL_ID);
    const manifest = await readManifest(dir);
    if (manifest?.buildVersion !== STATIC_BUILD_VERSION || !existsSync(join(dir, "onnx", "model.onnx"))) {
      log(`building the offline embedding model ${STATIC_MODEL_ID} in ${dir} (one time, 10–35 s on 2 busy cores, no download)`);
      await buildStaticModel(dir, { log });
    }
    return localSource(dir);
  }
  const looksLikePath = isAbsolute(model) || model.startsWith("./") || model.startsWith("../");
  const candidates = looksLikePath ? [resolve(model)] : [resolve(modelsDir, model), resolve(model)];
  const folder = candidates.find((dir) => existsSync(join(dir, "config.json")));
  if (folder) return localSource(folder, looksLikePath ? undefined : model);
  if (looksLikePath) throw new Error(`embedding model folder ${resolve(model)} not found (it needs a config.json)`);
  if (!settings.allowRemote) {
    throw new Error(
      `embedding model "${model}" is not in ${modelsDir} and downloading is disabled: set EMBEDDING_ALLOW_REMOTE=true ` +
        `to download it from the Hugging Face hub, or point EMBEDDING_MODEL at a local model folder (or "static").`,
    );
  }
  return { modelId: model, path: model, remote: true, profile: profileByFamily(model) };
}

/** A local folder: its jobsearch-model.json says how to use it; otherwise its name's model family does. */
async function localSource(dir: string, hubId?: string): Promise<ModelSource> {
  const manifest = await readManifest(dir);
  const modelId = manifest?.id ?? hubId ?? basename(dir);
  const profile = manifest
    ? { pooling: manifest.pooling, queryPrefix: manifest.queryPrefix, documentPrefix: manifest.documentPrefix }
    : profileByFamily(modelId);
  // Its graph sums rows, which the table path does the same way (prefixes are added before either).
  const table = manifest?.id === STATIC_MODEL_ID && manifest.pooling === "mean";
  return { modelId, path: dir, remote: false, profile, ...(table ? { table: manifest } : {}) };
}

async function readManifest(dir: string): Promise<ModelManifest | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, "jobsearch-model.json"), "utf8")) as ModelManifest;
  } catch {
    return undefined;
  }
}

/** What each family was trained with: bge pools [CLS] and prefixes queries, e5 prefixes both sides. */
function profileByFamily(name: string): Profile {
  const lower = name.toLowerCase();
  if (lower.includes("bge")) return { pooling: "cls", queryPrefix: BGE_QUERY_PREFIX, documentPrefix: "" };
  if (lower.includes("e5")) return { pooling: "mean", queryPrefix: "query: ", documentPrefix: "passage: " };
  return { pooling: "mean", queryPrefix: "", documentPrefix: "" };
}

async function embedAll(model: BatchModel, texts: string[], prefix: string): Promise<Float32Array[]> {
  const out = new Array<Float32Array>(texts.length);
  // Similar lengths share a batch so little padding is computed; blank texts never reach the model.
  const order = texts
    .map((_, i) => i)
    .filter((i) => texts[i]!.trim() !== "")
    .sort((a, b) => texts[a]!.length - texts[b]!.length);
  for (let start = 0; start < order.length; start += BATCH_SIZE) {
    const batch = order.slice(start, start + BATCH_SIZE);
    const vectors = await model.embed(batch.map((i) => prefix + texts[i]!.slice(0, MAX_CHARS)));
    batch.forEach((index, row) => (out[index] = vectors[row]!));
  }
  for (let i = 0; i < texts.length; i++) out[i] ??= fallbackVector(model.dimension);
  return out;
}

/** A model's pipeline (tokenizer and inference session), or a hub model downloaded when allowed. */
async function inferenceModel(source: ModelSource, settings: EmbeddingSettings): Promise<BatchModel> {
  // Imported here: ~300 ms with onnxruntime and sharp, which the offline model and commands that never embed do without.
  const { env, pipeline } = await import("@huggingface/transformers");
  env.allowLocalModels = true;
  env.allowRemoteModels = settings.allowRemote;
  env.localModelPath = settings.modelsDir;
  const extractor = (await pipeline("feature-extraction", source.path, {
    dtype: "fp32",
    local_files_only: !source.remote,
    // Downloads land in modelsDir/<hub id>, exactly where the next offline start looks for them.
    cache_dir: settings.modelsDir,
  }).catch((error: unknown) => {
    if (!source.remote) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `could not download embedding model "${source.path}" from the Hugging Face hub (${reason}); copy the model ` +
        `folder to ${join(settings.modelsDir, source.path)} or set EMBEDDING_MODEL=static`,
      { cause: error },
    );
  })) as unknown as Extractor;
  const { pooling } = source.profile;
  const dimension = (await embedBatch(extractor, pooling, ["dimension probe"]))[0]!.length;
  return { dimension, embed: (texts) => embedBatch(extractor, pooling, texts) };
}

/**
 * The offline model without an inference session: its graph only looks up each token's row, so the same
 * tokenizer's ids and a sum of the same float32 rows give the same vectors bit for bit, without padding
 * (half the tokens of a batch of postings) and in a fraction of the time and memory.
 */
async function tableModel(dir: string, manifest: ModelManifest): Promise<BatchModel> {
  const { dimension } = manifest;
  const { bytes, rowAt, value } = await readStaticTable(dir, dimension, manifest.table);
  const tokenizer = manifest.vocabularyIndex ? await tableTokenizer(dir) : await fullTokenizer(dir);
  return {
    dimension,
    embed: async (texts) =>
      texts.map((text) => {
        const sum = new Float64Array(dimension);
        for (const id of tokenizer.encode(text).ids.slice(0, MAX_TOKENS)) {
          const o = rowAt(id);
          for (let j = 0; j < dimension; j++) sum[j]! += value[bytes[o + 2 * j]! | (bytes[o + 2 * j + 1]! << 8)]!;
        }
        return unitOrFallback(sum);
      }),
  };
}

/** The tokenizer of a folder built before the vocabulary table: every word in a Map, built from tokenizer.json. */
async function fullTokenizer(dir: string): Promise<Tokenizer> {
  const [spec, config] = await Promise.all(["tokenizer.json", "tokenizer_config.json"].map((file) => Bun.file(join(dir, file)).json()));
  return new Tokenizer(spec, config);
}

/**
 * Tokenize, run, pool and normalize one batch. Pooling here rather than through the pipeline's `pooling`
 * option: its generic mean pooling took ~70% of the static model's time; this loop is ~20× faster.
 */
async function embedBatch(extractor: Extractor, pooling: Pooling, texts: string[]): Promise<Float32Array[]> {
  const inputs = extractor.tokenizer(texts, { padding: true, truncation: true, max_length: MAX_TOKENS });
  const outputs = await extractor.model(inputs);
  // The same output names the feature-extraction pipeline accepts, in its order.
  const hidden = outputs.last_hidden_state ?? outputs.logits ?? outputs.token_embeddings;
  if (!hidden) throw new Error(`embedding model gave none of last_hidden_state, logits, token_embeddings`);
  const [batch = 0, length = 0, d = 0] = hidden.dims;
  const states = hidden.data as Float32Array;
  const mask = inputs.attention_mask.data;
  const vectors: Float32Array[] = [];
  for (let b = 0; b < batch; b++) {
    const sum = new Float64Array(d);
    for (let t = 0; t < (pooling === "cls" ? Math.min(1, length) : length); t++) {
      if (!mask[b * length + t]) continue; // padding; 0n is falsy too
      const o = (b * length + t) * d;
      for (let j = 0; j < d; j++) sum[j]! += states[o + j]!;
    }
    vectors.push(unitOrFallback(sum)); // a mean's direction is its sum's, so no division by the count
  }
  return vectors;
}

/** Normalizes to float32; a zero or non-finite sum (no known word) becomes the fallback instead of NaN. */
function unitOrFallback(vector: Float64Array): Float32Array {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  if (!Number.isFinite(norm) || norm < 1e-12) return fallbackVector(vector.length);
  return Float32Array.from(vector, (x) => x / norm);
}
