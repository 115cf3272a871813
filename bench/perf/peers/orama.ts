import { search, type AnyOrama } from "@orama/orama";
import type { Embedder } from "../../../server/embedding/embedder.ts";
import type { Corpus } from "./corpus.ts";
import type { Answer, PeerRequest } from "./serve.ts";

/**
 * Orama's hybrid search over a db buildOrama made (title and description text, the vector, city,
 * country and source as enums, publish_ts as a number): the words as its full-text term, the query
 * embedded with the service's embedder as its vector, the filters as `where`, offset and limit its own.
 */
export function oramaAnswer(corpus: Corpus, db: AnyOrama, embedder: Embedder): Answer {
  const rowOf = new Map(corpus.ids.map((id, row) => [id, row]));
  return async (request) => {
    const vector = await embedder.embedQuery(request.q);
    const where = oramaWhere(request);
    const result = await search(db, {
      mode: "hybrid",
      term: request.q,
      vector: { value: Array.from(vector), property: "vector" },
      similarity: 0,
      limit: request.topK,
      offset: request.offset,
      ...(where ? { where } : {}),
    });
    return result.hits.map((hit) => rowOf.get(hit.id)!);
  };
}

// --- internal ---

function oramaWhere(r: PeerRequest): Record<string, unknown> | undefined {
  const where: Record<string, unknown> = {};
  if (r.city !== undefined) where.city = { eq: r.city };
  if (r.country !== undefined) where.country = { eq: r.country };
  if (r.source !== undefined) where.source = { eq: r.source };
  // Orama's bounds are inclusive; a second of difference from the service's exclusive ones.
  if (r.since !== undefined && r.until !== undefined) where.publish_ts = { between: [r.since + 1, r.until - 1] };
  else if (r.since !== undefined) where.publish_ts = { gt: r.since };
  else if (r.until !== undefined) where.publish_ts = { lt: r.until };
  return Object.keys(where).length > 0 ? where : undefined;
}
