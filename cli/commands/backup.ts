import { defineCommand } from "citty";
import { backupDataDir, type BackupManifest } from "../../server/backup/backup.ts";
import { formatBytes } from "../format.ts";
import { localConfig } from "../local.ts";

export default defineCommand({
  meta: {
    name: "backup",
    description: "Copy DATA_DIR (table at its latest version, API keys, OAuth signing key) into a new folder; safe while the server runs.",
  },
  args: {
    dir: { type: "positional", description: "New or empty folder for the backup", required: true },
    json: { type: "boolean", description: "Print the backup's manifest as JSON", default: false },
  },
  async run({ args }) {
    const started = performance.now();
    const manifest = await backupDataDir(localConfig().dataDir, args.dir);
    if (args.json) return void console.log(JSON.stringify(manifest, null, 2));
    console.log(`backed up ${describeBackup(manifest)} to ${args.dir} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  },
});

/** One line: postings, table version, files and bytes, keys, signing key. */
export function describeBackup(manifest: BackupManifest): string {
  const { table } = manifest;
  const keys = manifest.api_keys === null ? "no key store" : `${manifest.api_keys} active API key${manifest.api_keys === 1 ? "" : "s"}`;
  return (
    `${table.postings} postings (table version ${table.version}, ${table.files} files), ${keys}, ` +
    `${manifest.signing_key ? "the OAuth signing key" : "no OAuth signing key"}; ${formatBytes(manifest.bytes)}`
  );
}
