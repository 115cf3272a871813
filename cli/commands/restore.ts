import { defineCommand } from "citty";
import { restoreDataDir } from "../../server/backup/restore.ts";
import { describeBackup } from "./backup.ts";
import { localConfig } from "../local.ts";

export default defineCommand({
  meta: {
    name: "restore",
    description: "Restore a backup folder into DATA_DIR (empty unless --force). Stop servers on DATA_DIR first.",
  },
  args: {
    dir: { type: "positional", description: "Folder written by `backup`", required: true },
    force: { type: "boolean", description: "Replace the table, keys and signing key of a non-empty DATA_DIR", default: false },
    json: { type: "boolean", description: "Print the backup's manifest as JSON", default: false },
  },
  async run({ args }) {
    const dataDir = localConfig().dataDir;
    const manifest = await restoreDataDir(args.dir, dataDir, { force: args.force });
    if (args.json) return void console.log(JSON.stringify(manifest, null, 2));
    console.log(`restored ${describeBackup(manifest)} from ${args.dir} (backed up ${manifest.created_at}) into ${dataDir}`);
  },
});
