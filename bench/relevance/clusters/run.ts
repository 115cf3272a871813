/**
 * `bun run eval --set clusters`: the same-job clusters judged on sets/clusters/ (own and held-out
 * halves). The shared postings are assigned as one load in file order, then the synthetic copies
 * as a later load, by the assigner a load uses (server/ingest/clusters.ts); a pair is judged the
 * same job when both postings share a cluster. Prints precision and recall (positive: the same
 * job) of each half, and the own half's pairs by kind (the held-out half only in aggregate).
 */
import { ClusterAssigner } from "../../../server/ingest/clusters.ts";
import { signature } from "../../../server/ingest/same-job.ts";
import { readShared, type JudgedPair } from "./sample.ts";
import { synthesize, type SourcePosting, type SyntheticRef } from "./synthetic.ts";

export async function runClusters(options: { verbose?: boolean } = {}): Promise<void> {
  const [{ CLUSTER_PAIRS_OWN }, { CLUSTER_PAIRS_HELD_OUT }] = await Promise.all([
    import("../sets/clusters/own.ts"),
    import("../sets/clusters/held-out.ts"),
  ]);
  const shared = await readShared();
  const byId = new Map(shared.map((p) => [p.id, p]));
  const synthetic = [...CLUSTER_PAIRS_OWN, ...CLUSTER_PAIRS_HELD_OUT].flatMap((pair) => (typeof pair.b === "string" ? [] : [synthesize(pair.b, byId)]));
  const started = performance.now();
  const clusterOf = new Map<string, string>();
  const first = new ClusterAssigner([]);
  for (const p of shared) clusterOf.set(p.id, first.assign(p.id, signature(p), hashOf(p)).clusterId);
  const seconds = (performance.now() - started) / 1000;
  for (const p of synthetic) clusterOf.set(p.id, first.assign(p.id, signature(p), hashOf(p)).clusterId);
  const sizes = new Map<string, number>();
  for (const id of byId.keys()) sizes.set(clusterOf.get(id)!, (sizes.get(clusterOf.get(id)!) ?? 0) + 1);
  console.log(`${shared.length} shared postings in ${sizes.size} clusters (${[...sizes.values()].filter((n) => n > 1).length} of 2 or more), assigned in ${seconds.toFixed(2)} s (${Math.round(shared.length / seconds)}/s); ${synthetic.length} synthetic copies loaded after them`);
  const idOf = (b: string | SyntheticRef) => (typeof b === "string" ? b : `syn-${b.recipe}-${b.base}-${b.seed}`);
  const judge = (pairs: JudgedPair[]) => pairs.map((pair) => ({ pair, said: clusterOf.get(pair.a) === clusterOf.get(idOf(pair.b)) }));
  const own = judge(CLUSTER_PAIRS_OWN);
  const heldOut = judge(CLUSTER_PAIRS_HELD_OUT);
  console.log("part      pairs  same  precision  recall");
  for (const [name, judged] of [["own", own], ["held-out", heldOut]] as const) {
    const { precision, recall, same } = figures(judged);
    console.log(`${name.padEnd(9)} ${String(judged.length).padStart(5)} ${String(same).padStart(5)}  ${precision.toFixed(3).padStart(9)}  ${recall.toFixed(3).padStart(6)}`);
  }
  console.log("\nown half by kind (right / pairs):");
  const kinds = new Map<string, { right: number; all: number }>();
  for (const { pair, said } of own) {
    const entry = kinds.get(pair.kind) ?? kinds.set(pair.kind, { right: 0, all: 0 }).get(pair.kind)!;
    entry.all++;
    if (said === pair.same) entry.right++;
  }
  for (const [kind, { right, all }] of [...kinds].sort()) console.log(`  ${kind.padEnd(36)} ${right}/${all}`);
  if (options.verbose) {
    for (const { pair } of own.filter(({ pair, said }) => said !== pair.same)) {
      const b = typeof pair.b === "string" ? byId.get(pair.b)! : synthetic.find((p) => p.id === idOf(pair.b))!;
      console.log(`\nWRONG ${pair.kind} (same=${pair.same})\n  ${show(byId.get(pair.a)!)}\n  ${show(b)}`);
    }
  }
}

// --- internal ---

function figures(judged: Array<{ pair: JudgedPair; said: boolean }>): { precision: number; recall: number; same: number } {
  const truePositives = judged.filter(({ pair, said }) => said && pair.same).length;
  const said = judged.filter(({ said }) => said).length;
  const same = judged.filter(({ pair }) => pair.same).length;
  return { precision: said === 0 ? 1 : truePositives / said, recall: same === 0 ? 1 : truePositives / same, same };
}

function hashOf(p: SourcePosting): string {
  return String(Bun.hash(JSON.stringify(p)));
}

function show(p: SourcePosting): string {
  return `${p.id} | ${p.company_name} | ${p.job_title} | ${p.city} | ${p.job_description.slice(0, 160).replace(/\s+/g, " ")}`;
}
