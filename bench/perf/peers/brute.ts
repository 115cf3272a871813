import type { Embedder } from "../../../server/embedding/embedder.ts";
import { exactNearest, type Corpus } from "./corpus.ts";
import { candidateRows, rowMatches, type Answer } from "./serve.ts";

/**
 * Exact vector search: the query embedded with the service's own embedder, then a dot product with
 * every stored vector the filters allow (a city's or country's row list, as a bitmap index would
 * give it, else all rows), the best offset + top_k kept. No text matching, no ranking beyond cosine.
 */
export function bruteForceAnswer(corpus: Corpus, embedder: Embedder): Answer {
  return async (request) => {
    const q = await embedder.embedQuery(request.q);
    const best = exactNearest(corpus, q, request.offset + request.topK, candidateRows(corpus, request), (row) => rowMatches(corpus, row, request));
    return best.slice(request.offset).map((hit) => hit.index);
  };
}
