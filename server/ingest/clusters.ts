import { blockKeys, decodeSignature, sameJobScore, type SameJobSignature } from "./same-job.ts";

/*
 * Which cluster (the same job, same-job.ts) each posting of a load joins. The stored postings'
 * signatures are read once at the start of a load and looked up by block (title, LSH bands), never
 * compared all against all. A new posting joins the cluster of its best match among the stored
 * postings and those of the load before it, or starts its own; a changed posting keeps its cluster
 * while it is still the same job as its stored version. Cluster ids never change: a cluster's id is
 * made from its first posting (its id and content hash), so loading the same file again, into this
 * table or an empty one, gives the same ids.
 */

/** A stored posting as assigning reads it (StoreWriter.clusterRows). */
export interface ClusterMember {
  id: string;
  clusterId: string;
  /** Epoch seconds of the load that first brought the posting. */
  firstLoaded: number;
  /** Its encoded signature (same-job.ts); "" for a posting of a table loaded before clusters. */
  signature: string;
}

/** At most this many postings of one block are compared with a new posting (the latest ones). */
const BLOCK_LIMIT = 400;

export class ClusterAssigner {
  private readonly members: Array<{ id: string; clusterId: string; sig: SameJobSignature }> = [];
  /** Block key → member indexes, oldest first. */
  private readonly blocks = new Map<string, number[]>();
  /** Id → its current member index, and its first load time. */
  private readonly byId = new Map<string, { index: number; firstLoaded: number }>();

  /** `stored`: the table's postings, in the order they were assigned (first load, then publication). */
  constructor(stored: Iterable<ClusterMember>, readonly loadTime: number) {
    for (const member of stored) {
      const sig = decodeSignature(member.signature);
      if (sig !== undefined) this.add(member.id, member.clusterId, sig, member.firstLoaded);
    }
  }

  /**
   * The cluster and first load time of a posting being written (new or changed), recorded so later
   * postings of the load can join it. `contentHash` names a new cluster's first posting.
   */
  assign(id: string, sig: SameJobSignature, contentHash: string): { clusterId: string; firstLoaded: number } {
    const known = this.byId.get(id);
    const firstLoaded = known?.firstLoaded ?? this.loadTime;
    let clusterId: string | undefined;
    if (known !== undefined) {
      const before = this.members[known.index]!;
      if (sameJobScore(before.sig, sig) !== undefined) clusterId = before.clusterId;
    }
    clusterId ??= this.bestMatch(id, sig) ?? newClusterId(id, contentHash);
    this.add(id, clusterId, sig, firstLoaded);
    return { clusterId, firstLoaded };
  }

  /** The cluster of the most alike posting that is the same job (ties: the earliest assigned). */
  private bestMatch(id: string, sig: SameJobSignature): string | undefined {
    const seen = new Set<number>();
    let best: { score: number; index: number } | undefined;
    for (const key of blockKeys(sig)) {
      const block = this.blocks.get(key);
      if (block === undefined) continue;
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

  private add(id: string, clusterId: string, sig: SameJobSignature, firstLoaded: number): void {
    const index = this.members.length;
    this.members.push({ id, clusterId, sig });
    this.byId.set(id, { index, firstLoaded });
    for (const key of blockKeys(sig)) {
      const block = this.blocks.get(key);
      if (block === undefined) this.blocks.set(key, [index]);
      else block.push(index);
    }
  }
}

/** A new cluster's id: `c` and 16 hex digits of its first posting's id and content. */
export function newClusterId(id: string, contentHash: string): string {
  return `c${new Bun.CryptoHasher("sha256").update(`${id}\u0000${contentHash}`).digest("hex").slice(0, 16)}`;
}
