import { defineCommand } from "citty";
import { invalidParameter } from "../../shared/errors.ts";
import { parseDateTime } from "../../shared/time.ts";
import { deletePostings, type DeleteSelector } from "../../server/ingest/lifecycle.ts";
import { inspectStore } from "../../server/store/store.ts";
import { describeHolder, openWriteLock } from "../../server/store/write-lease.ts";
import { localConfig, openLocalStore } from "../local.ts";
import { note } from "../format.ts";

export default defineCommand({
  meta: {
    name: "delete",
    description: "Remove postings from DATA_DIR: by id, by source, or published before a date; one commit, so searches see all of it or none.",
  },
  args: {
    id: { type: "string", description: "Ids of the postings, comma-separated" },
    source: { type: "string", description: "Every posting of this data source" },
    before: { type: "string", description: "Every posting published before this time: YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (UTC)" },
    "dry-run": { type: "boolean", default: false, description: "Only count what would be deleted" },
    wait: {
      type: "boolean",
      default: true,
      description: "Wait while another load or delete writes to the table",
      negativeDescription: "Refuse at once (exit 1) while another write holds the table",
    },
  },
  async run({ args }) {
    const selector: DeleteSelector = {
      ...(args.id === undefined ? {} : { ids: args.id.split(",").map((id) => id.trim()).filter(Boolean) }),
      ...(args.source === undefined ? {} : { source: args.source }),
      ...(args.before === undefined ? {} : { before: beforeTime(args.before) }),
    };
    const config = localConfig();
    // The table as it stands, without loading the model (a delete embeds nothing); a DATA_DIR without one
    // gets the empty table a first load would make, and the same answers as before.
    const store = (await inspectStore(config.table)) ?? (await openLocalStore(config)).store;
    const lock = await openWriteLock(config.table, config.redisUrl);
    try {
      const { deleted, seconds, missing } = await deletePostings({ store, lock: lock.lock }, selector, {
        dryRun: args["dry-run"],
        wait: args.wait,
        onWait: (holder) => note(`waiting for the ${holder ? describeHolder(holder) : "write in progress"} to finish (--no-wait refuses instead)`),
      });
      const what = args.id !== undefined ? "by id" : args.source !== undefined ? `of source ${args.source}` : `published before ${args.before}`;
      console.log(`${args["dry-run"] ? "would delete" : "deleted"} ${deleted} posting${deleted === 1 ? "" : "s"} (${what}) in ${seconds.toFixed(1)} s`);
      if (missing.length > 0) console.log(`not found (${missing.length}): ${missing.join(", ")}`);
    } finally {
      store.close();
      lock.close();
    }
  },
});

function beforeTime(value: string): number {
  const seconds = parseDateTime(value);
  if (seconds === undefined) throw invalidParameter("--before must be a date, YYYY-MM-DD or YYYY-MM-DD HH:MM:SS");
  return seconds;
}
