import type { StoredCluster } from "../store/clusters.ts";
import type { JobStore } from "../store/store.ts";
import { blockKeys, decodeSignature, encodeSignature, sameJobScore, signature, type SameJobSignature, type SignedFields } from "./same-job.ts";

/*
 * Which cluster (the same job, same-job.ts) each posting of a load joins. The stored postings'
 * signatures are read once at the start of a load and looked up by block (title, LSH bands), never
 * compared all against all. A new posting joins the cluster of its best match among the stored
 * postings and those of the load before it, or starts its own; a changed posting keeps its cluster
 * while it is still the same job as its stored version. Cluster ids never change: a cluster's id is
 * made from its first posting (its id and content hash), so loading the same file again, into this
 * table or an empty one, gives the same ids.
 */

/** At most this many postings of one block are compared with a new posting (the latest ones). */
const BLOCK_LIMIT = 400;

export class ClusterAssigner {
  private readonly members: Array<{ id: string; clusterId: string; sig: SameJobSignature }> = [];
  /** Block key → member indexes, oldest first (a block of one: the index alone, most blocks are). */
  private readonly blocks = new Map<number, number | number[]>();
  /** Id → its current member index. */
  private readonly byId = new Map<string, { index: number }>();

  /** `stored`: the table's postings, in the order they were assigned (first load, then publication). */
  constructor(stored: Iterable<StoredCluster>) {
    for (const member of stored) {
      const sig = decodeSignature(member.same_job_sig);
      if (sig !== undefined) this.add(member.id, member.cluster_id, sig);
    }
  }

  /**
   * The cluster of a posting being written (new or changed), recorded so later postings of the load
   * can join it. `contentHash` names a new cluster's first posting. (When it was first loaded is the
   * store's: store/write.ts stamps `loaded_at`.)
   */
  assign(id: string, sig: SameJobSignature, contentHash: string): { clusterId: string } {
    const known = this.byId.get(id);
    let clusterId: string | undefined;
    if (known !== undefined) {
      const before = this.members[known.index]!;
      if (sameJobScore(before.sig, sig) !== undefined) clusterId = before.clusterId;
    }
    const keys = blockKeys(sig);
    clusterId ??= this.bestMatch(id, sig, keys.sought) ?? newClusterId(id, contentHash);
    this.add(id, clusterId, sig, keys.filed);
    return { clusterId };
  }

  /** The cluster of the most alike posting that is the same job (ties: the earliest assigned). */
  private bestMatch(id: string, sig: SameJobSignature, sought: number[]): string | undefined {
    const seen = new Set<number>();
    let best: { score: number; index: number } | undefined;
    for (const key of sought) {
      const found = this.blocks.get(key);
      if (found === undefined) continue;
      const block = typeof found === "number" ? [found] : found;
      for (let k = block.length - 1; k >= Math.max(0, block.length - BLOCK_LIMIT); k--) {
        const index = block[k]!;
        if (seen.has(index)) continue;
        seen.add(index);
        const member = this.members[index]!;
        // A replaced version of a posting (it was assigned again later) is not a posting any more.
        if (member.id === id || this.byId.get(member.id)?.index !== index) continue;
        const score = sameJobScore(sig, member.sig);
        if (score !== undefined && (best === undefined || score > best.score || (score === best.score && index < best.index))) best = { score, index };
      }
    }
    return best === undefined ? undefined : this.members[best.index]!.clusterId;
  }

  private add(id: string, clusterId: string, sig: SameJobSignature, filed = blockKeys(sig).filed): void {
    const index = this.members.length;
    this.members.push({ id, clusterId, sig });
    this.byId.set(id, { index });
    for (const key of filed) {
      const block = this.blocks.get(key);
      if (block === undefined) this.blocks.set(key, index);
      else if (typeof block === "number") this.blocks.set(key, [block, index]);
      else block.push(index);
    }
  }
}

/**
 * The assigner of a load, holding the table's postings. A table loaded before clusters gets its
 * cluster columns here, and every posting is assigned (in publication order) before the load writes
 * anything: the migration.
 */
export async function openAssigner(store: JobStore): Promise<{ assigner: ClusterAssigner; migrated: number }> {
  const stored = await store.storedClusters();
  if (stored !== undefined) return { assigner: new ClusterAssigner(stored), migrated: 0 };
  const rows = await store.addClusterColumns();
  const assigner = new ClusterAssigner([]);
  const updates = rows.map((row) => {
    const sig = signature(row as unknown as SignedFields);
    const { clusterId } = assigner.assign(row.id, sig, row.content_hash);
    return { id: row.id, cluster_id: clusterId, same_job_sig: encodeSignature(sig), result_json: withClusterId(row.result_json, clusterId) };
  });
  for (let i = 0; i < updates.length; i += MIGRATION_BATCH) await store.updateClusters(updates.slice(i, i + MIGRATION_BATCH));
  return { assigner, migrated: rows.length };
}

/** result_json (store/schema.ts) with the posting's cluster id. */
export function withClusterId(resultJson: string, clusterId: string): string {
  return JSON.stringify({ ...JSON.parse(resultJson), cluster_id: clusterId });
}

/** Postings whose cluster columns a migration writes per commit. */
const MIGRATION_BATCH = 20_000;

/** A new cluster's id: `c` and 16 hex digits of its first posting's id and content. */
export function newClusterId(id: string, contentHash: string): string {
  return `c${new Bun.CryptoHasher("sha256").update(`${id}\u0000${contentHash}`).digest("hex").slice(0, 16)}`;
}
