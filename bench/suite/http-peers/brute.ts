import type { Embedder } from "../../../server/embedding/embedder.ts";
import type { Corpus } from "../peers.ts";
import { candidateRows, rowMatches, type Answer } from "./serve.ts";

/**
 * Exact vector search: the query embedded with the service's own embedder, then a dot product with
 * every stored vector the filters allow (a city's or country's row list, as a bitmap index would
 * give it, else all rows), the best offset + top_k kept. No text matching, no ranking beyond cosine.
 */
export function bruteForceAnswer(corpus: Corpus, embedder: Embedder): Answer {
  const { vectors, dimension } = corpus;
  return async (request) => {
    const q = await embedder.embedQuery(request.q);
    const rows = candidateRows(corpus, request);
    const n = rows ? rows.length : corpus.ids.length;
    const k = request.offset + request.topK;
    const best = new Int32Array(k).fill(-1);
    const dots = new Float64Array(k).fill(-Infinity);
    for (let j = 0; j < n; j++) {
      const row = rows ? rows[j]! : j;
      if (!rowMatches(corpus, row, request)) continue;
      let dot = 0;
      for (let d = 0, o = row * dimension; d < dimension; d++) dot += q[d]! * vectors[o + d]!;
      if (dot <= dots[k - 1]!) continue;
      let i = k - 1;
      while (i > 0 && dots[i - 1]! < dot) {
        dots[i] = dots[i - 1]!;
        best[i] = best[i - 1]!;
        i--;
      }
      dots[i] = dot;
      best[i] = row;
    }
    return [...best.subarray(request.offset)].filter((row) => row >= 0);
  };
}
