import { parseDateTime } from "../../../shared/time.ts";
import type { Corpus } from "./corpus.ts";

/** A mix body as every peer reads it: the words, the filters peers can express, and the page. */
export interface PeerRequest {
  q: string;
  city?: string;
  country?: string;
  source?: string;
  /** Unix seconds, exclusive, as the service reads since and until. */
  since?: number;
  until?: number;
  topK: number;
  offset: number;
  full: boolean;
}

/** The rows (corpus indexes) of one page, best first. */
export type Answer = (request: PeerRequest) => number[] | Promise<number[]>;

export interface PeerServer {
  url: string;
  /** Searches answered so far (200s). */
  answered(): number;
  /** Resolves once no request is being answered: what a load left queued is done. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * POST /v1/search on a loopback port in this process, answering `{results: [{id, job_title, city,
 * country, data_source, publish_ts, job_description?}]}` as the service's summary or full detail
 * would; a body it cannot read is a 400.
 */
export function servePeer(corpus: Corpus, answer: Answer): PeerServer {
  let answered = 0;
  let inFlight = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      let peerRequest: PeerRequest;
      try {
        peerRequest = readPeerRequest(await request.json());
      } catch (error) {
        return Response.json({ error: String(error) }, { status: 400 });
      }
      inFlight++;
      try {
        const rows = await answer(peerRequest);
        answered++;
        return Response.json({ results: rows.map((row) => result(corpus, row, peerRequest.full)) });
      } finally {
        inFlight--;
      }
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    answered: () => answered,
    async idle() {
      while (inFlight > 0) await Bun.sleep(10);
    },
    stop: () => server.stop(true),
  };
}

/** Whether row `row` passes the request's filters (the service's semantics: since and until exclusive). */
export function rowMatches(corpus: Corpus, row: number, r: PeerRequest): boolean {
  if (r.city !== undefined && corpus.city[row] !== r.city) return false;
  if (r.country !== undefined && corpus.country[row] !== r.country) return false;
  if (r.source !== undefined && corpus.source[row] !== r.source) return false;
  const ts = corpus.publishTs[row]!;
  if (r.since !== undefined && !(ts > r.since)) return false;
  if (r.until !== undefined && !(ts < r.until)) return false;
  return true;
}

/** The rows a city or country filter allows (a bitmap index would give them), else undefined: every row. */
export function candidateRows(corpus: Corpus, r: PeerRequest): Int32Array | undefined {
  if (r.city !== undefined) return corpus.byCity.get(r.city) ?? new Int32Array();
  if (r.country !== undefined) return corpus.byCountry.get(r.country) ?? new Int32Array();
  return undefined;
}

// --- internal ---

function readPeerRequest(raw: unknown): PeerRequest {
  const body = raw as Record<string, unknown>;
  if (typeof body.q !== "string" || body.q.trim() === "") throw new Error("q is required");
  const text = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : undefined);
  const time = (name: string) => {
    const value = text(name);
    if (value === undefined) return undefined;
    const ts = parseDateTime(value);
    if (ts === undefined) throw new Error(`${name} is not a date`);
    return ts;
  };
  const city = text("city");
  const country = text("country");
  const source = text("source");
  const since = time("since");
  const until = time("until");
  return {
    q: body.q,
    ...(city !== undefined ? { city } : {}),
    ...(country !== undefined ? { country } : {}),
    ...(source !== undefined ? { source } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(until !== undefined ? { until } : {}),
    topK: Math.min(100, Math.max(1, Number(body.top_k ?? 20))),
    offset: Math.max(0, Number(body.offset ?? 0)),
    full: body.detail === "full",
  };
}

function result(corpus: Corpus, row: number, full: boolean): Record<string, unknown> {
  return {
    id: corpus.ids[row],
    job_title: corpus.title[row],
    city: corpus.city[row],
    country: corpus.country[row],
    data_source: corpus.source[row],
    publish_ts: corpus.publishTs[row],
    ...(full ? { job_description: corpus.description[row] } : {}),
  };
}
