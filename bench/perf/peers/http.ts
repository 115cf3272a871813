import { loadEmbedder, type Embedder } from "../../../server/embedding/embedder.ts";
import { ownCpuMs, processTreeCpuMs } from "../suite/cpu.ts";
import { MODELS_DIR } from "../suite/dataset.ts";
import { runWrk } from "../suite/load.ts";
import { measureLoad, MIX_CONNECTIONS, searchCount, searchesSettled, searchTarget, type MeasuredLoad } from "../suite/mix-run.ts";
import { PEER_FILTERS, peerMix, type MixBody } from "../suite/mix.ts";
import type { Corpus } from "./corpus.ts";
import { buildOrama } from "./in-process.ts";
import { checkBodies } from "../suite/sanity.ts";
import { spawnBenchServer } from "../suite/server.ts";
import { bruteForceAnswer } from "./brute.ts";
import { ftsPeer } from "./fts.ts";
import { oramaAnswer } from "./orama.ts";
import { servePeer, type Answer } from "./serve.ts";

export interface PeerLoad extends MeasuredLoad {
  name: string;
  /** Time to index the postings before serving. */
  buildSeconds: number;
}

export interface HttpPeersResult {
  /** Bodies of the mix as peers can answer them (distinct). */
  bodies: number;
  /** Bodies that lost a filter no peer expresses (the service gets the same reduced bodies). */
  dropped: number;
  /** The service with SEARCH_CACHE_MB=0 on the reduced bodies. */
  service: MeasuredLoad;
  peers: PeerLoad[];
}

/**
 * The mix, reduced to the filters peers can express, over HTTP at concurrency 16: first the service
 * (no result cache), then exact brute force, Orama hybrid and SQLite FTS5, each a Bun.serve in this
 * process, built, warmed and stopped in turn. Every runner gets the same bodies, warm-up and duration.
 */
export async function measureHttpPeers(
  dataDir: string, apiKey: string, corpus: Corpus, mix: MixBody[], plan: { loadSeconds: number; warmupSeconds: number }, step: (text: string) => void,
): Promise<HttpPeersResult> {
  const reduced = peerMix(mix);
  const bodies = reduced.bodies.map((body) => JSON.stringify(body));

  step(`peers over HTTP: the service, result cache off, ${plan.loadSeconds} s at concurrency ${MIX_CONNECTIONS}`);
  const server = await spawnBenchServer(dataDir, apiKey, { SEARCH_CACHE_MB: "0" });
  let service: MeasuredLoad;
  try {
    const target = searchTarget(server.url, apiKey, bodies);
    await runWrk(target, MIX_CONNECTIONS, plan.warmupSeconds);
    service = await measureLoad(target, plan.loadSeconds, {
      cpuMs: () => processTreeCpuMs(server.pid),
      searches: () => searchCount(server.url),
      settle: () => searchesSettled(server.url),
    });
  } finally {
    await server.stop();
  }

  const embedder = await peerEmbedder(corpus);
  const run = async (name: string, answer: Answer, buildSeconds: number): Promise<PeerLoad> => {
    step(`peers over HTTP: ${name}, ${plan.loadSeconds} s at concurrency ${MIX_CONNECTIONS}`);
    const peer = servePeer(corpus, answer);
    try {
      await checkBodies(peer.url, apiKey, bodies.slice(0, 20));
      const target = searchTarget(peer.url, apiKey, bodies);
      await runWrk(target, MIX_CONNECTIONS, plan.warmupSeconds);
      // A slow peer is still answering the last requests of a load when wrk stops: settle waits for them.
      const load = await measureLoad(target, plan.loadSeconds, { cpuMs: ownCpuMs, searches: async () => peer.answered(), settle: peer.idle });
      return { name, buildSeconds, ...load };
    } finally {
      await peer.stop();
    }
  };

  const peers: PeerLoad[] = [];
  peers.push(await run("exact brute force (embed + Float32Array scan)", bruteForceAnswer(corpus, embedder), 0));
  step("peers over HTTP: building Orama (text, vector, enums)");
  const orama = await buildOrama(corpus);
  peers.push(await run("Orama 3 hybrid (text + vector, where)", oramaAnswer(corpus, orama.db, embedder), orama.seconds));
  step("peers over HTTP: building SQLite FTS5");
  const fts = ftsPeer(corpus);
  try {
    peers.push(await run("SQLite FTS5 bm25 (keywords OR, WHERE)", fts.answer, fts.buildSeconds));
  } finally {
    fts.close();
  }
  return { bodies: bodies.length, dropped: reduced.dropped, service, peers };
}

/** Table rows: the service, then each peer with the service's throughput and p50 as a ratio of its own. */
export function httpPeerRows(r: HttpPeersResult): string[][] {
  const figures = (l: MeasuredLoad) =>
    `${int(l.rps)} req/s, p50 ${ms(l.p50)}, p99 ${ms(l.p99)}, ${int(l.non200)} non-200 of ${int(l.requests)}; CPU ${ms(l.cpuMsPerSearch, 2)}/search`;
  const s = r.service;
  return [
    [`Peers over HTTP (${int(r.bodies)} mix bodies, filters ${PEER_FILTERS.join("/")} only, c${s.connections}): the service, result cache off`, figures(s), "", ""],
    ...r.peers.map((p) => [
      `Peers over HTTP: ${p.name}${p.buildSeconds > 0 ? `, built in ${p.buildSeconds.toFixed(1)} s` : ""}`,
      `${figures(p)}; service ÷ peer: req/s ${ratio(s.rps, p.rps)}, p50 ${ratio(s.p50, p.p50)}`,
      "",
      "",
    ]),
  ];
}

/** What the peer comparison leaves out, for the notes. */
export function httpPeerNote(r: HttpPeersResult): string {
  return (
    `Peers over HTTP: ${int(r.dropped)} mix bodies lost filters no peer expresses (remote, seniority, employment_type, tags, company, near, salary), ` +
    `dropped for every runner including the service; the service still reads conditions in the words (query understanding), peers search the words as typed; ` +
    `Orama's vector half runs with similarity 0 (every posting a candidate, as in brute force), not its default 0.8; ` +
    `peers run in this script's process (CPU/search from its own usage), the service in its own.`
  );
}

// --- internal ---

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number, digits = 1) => `${n.toFixed(digits)} ms`;
const ratio = (ours: number, theirs: number) => `${(ours / theirs).toFixed(2)}×`;

/** The service's embedder, as its server loads it; it must be the model the table's vectors came from. */
async function peerEmbedder(corpus: Corpus): Promise<Embedder> {
  const embedder = await loadEmbedder({ model: Bun.env.EMBEDDING_MODEL ?? "static", allowRemote: false, modelsDir: MODELS_DIR });
  if (embedder.modelId !== corpus.modelId) throw new Error(`the table's vectors come from ${corpus.modelId}, the embedder is ${embedder.modelId}`);
  return embedder;
}
