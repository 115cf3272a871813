import type { Embedder } from "../../embedding/embedder.ts";
import { OCCUPATIONS } from "../../knowledge/knowledge.ts";
import { indexVectors, type VectorIndex } from "../../memory/vectors.ts";
import { hasCjk } from "../../text/fold.ts";

/*
 * The knowledge base's occupations as an embedder sees them, for finding an occupation by what a query
 * means rather than by the words it shares with one (meaning-match.ts). Every English title, phrase and
 * skill is embedded once per embedder and process: the offline model takes ~1.5 s for the ~7,400 texts,
 * so the server starts it in the background (searches that need it wait for the same promise).
 */

/** Every occupation's texts as vectors of one embedder. */
export interface OccupationVectors {
  /** One row per English title, phrase and skill, unit length: a query's dot product with a row is its cosine. */
  texts: VectorIndex;
  /** Row → the occupation's position in OCCUPATIONS. */
  textOccupation: Int32Array;
  /** Per occupation, the unit mean of its texts' vectors, `dimension` floats each. */
  means: Float32Array;
  dimension: number;
}

/** The vectors of `embedder`, computed on the first call and shared by every later one; rejects as embedDocuments does. */
export function occupationVectors(embedder: Embedder): Promise<OccupationVectors> {
  let vectors = BY_EMBEDDER.get(embedder);
  if (vectors === undefined) {
    vectors = buildVectors(embedder);
    // A failed build is not kept: the next search tries again.
    vectors.catch(() => BY_EMBEDDER.delete(embedder));
    BY_EMBEDDER.set(embedder, vectors);
  }
  return vectors;
}

// --- internal ---

const BY_EMBEDDER = new WeakMap<Embedder, Promise<OccupationVectors>>();

async function buildVectors(embedder: Embedder): Promise<OccupationVectors> {
  // Chinese titles are left out: the offline model knows no Chinese word, and CJK queries never ask.
  const texts: string[] = [];
  const owners: number[] = [];
  OCCUPATIONS.forEach((occupation, at) => {
    for (const text of [...occupation.titles.filter((t) => !hasCjk(t)), ...occupation.phrases, ...occupation.skills]) {
      texts.push(text);
      owners.push(at);
    }
  });
  const d = embedder.dimension;
  const embedded = await embedder.embedDocuments(texts);
  const flat = new Float32Array(texts.length * d);
  embedded.forEach((vector, row) => flat.set(vector, row * d));
  const sums = new Float64Array(OCCUPATIONS.length * d);
  embedded.forEach((vector, row) => {
    const o = owners[row]! * d;
    for (let j = 0; j < d; j++) sums[o + j]! += vector[j]!;
  });
  const means = new Float32Array(sums.length);
  for (let o = 0; o < sums.length; o += d) {
    let norm = 0;
    for (let j = 0; j < d; j++) norm += sums[o + j]! ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let j = 0; j < d; j++) means[o + j] = sums[o + j]! / norm;
  }
  return { texts: indexVectors(flat, texts.length, d), textOccupation: Int32Array.from(owners), means, dimension: d };
}
