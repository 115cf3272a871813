/**
 * The server's index build process (see maintainVectorIndex): reads a BuildJob as JSON on stdin,
 * takes the table's write lease without waiting, builds or rebuilds the ANN index when it still
 * needs it, and prints the IndexUpdate as JSON (or `{"busy":true}` when another writer holds the
 * lease: a load builds the index itself). Errors go to stderr with exit code 1.
 */
import { connectRedis } from "../redis.ts";
import { updateVectorIndex, type BuildJob } from "./index-maintenance.ts";
import { inspectStore } from "./store.ts";
import { writeLock } from "./write-lease.ts";

const job = JSON.parse(await Bun.stdin.text()) as BuildJob;
const redis = job.redisUrl ? await connectRedis(job.redisUrl) : undefined;
try {
  const lease = await writeLock(job.location, redis).tryAcquire("index build");
  if (lease === undefined) {
    console.log(JSON.stringify({ busy: true }));
  } else {
    try {
      const store = await inspectStore(job.location);
      try {
        console.log(JSON.stringify(store ? await updateVectorIndex(store, job.minRows) : { work: undefined, rows: 0, ms: 0 }));
      } finally {
        store?.close();
      }
    } finally {
      await lease.release();
    }
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  redis?.close();
}
