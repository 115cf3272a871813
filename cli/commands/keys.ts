import { defineCommand } from "citty";
import { AppError, invalidParameter } from "../../shared/errors.ts";
import type { ApiKeyInfo } from "../../server/auth/api-keys.ts";
import { keyStoreLocation } from "../../server/auth/stores.ts";
import { colorEnabled, createStyle, renderTable, shortTime, terminalWidth, note, type Style } from "../format.ts";
import { localConfig, withLocalKeys } from "../local.ts";

const create = defineCommand({
  meta: {
    name: "create",
    description: "Create an API key; the key is printed once and stored only as a hash.",
  },
  args: {
    name: { type: "string", description: "Who or what the key is for", required: true },
    "rate-limit": { type: "string", description: "Requests per minute for this key", valueHint: "N" },
    json: { type: "boolean", description: "Print {id, name, key, …} as JSON", default: false },
  },
  async run({ args }) {
    const rateLimit = parseRateLimit(args["rate-limit"]);
    const name = args.name.trim();
    if (name === "") throw invalidParameter("--name must not be empty");
    const created = await withLocalKeys((keys) => keys.create(name, rateLimit));
    if (args.json) console.log(JSON.stringify(created, null, 2));
    else {
      console.log(`created key ${created.id} (${created.name}); it is shown only now:\n${created.key}`);
      note(`stored in ${keyStoreLocation(localConfig())}: a server reading another DATA_DIR (or REDIS_URL) does not know it`);
      note("(to use it from this CLI: bun run cli config set api-key, then paste the key)");
    }
  },
});

const list = defineCommand({
  meta: { name: "list", description: "List API keys: id, name, created, last used, rate limit, state (never the keys themselves)." },
  args: { json: { type: "boolean", description: "Print JSON", default: false } },
  async run({ args }) {
    const all = await withLocalKeys((keys) => keys.list());
    if (args.json) return void console.log(JSON.stringify(all, null, 2));
    if (all.length === 0) return void console.log("no API keys (create one with `keys create --name NAME`)");
    console.log(formatKeys(all, { width: terminalWidth(), style: createStyle(colorEnabled()) }));
  },
});

/** Keys as an aligned table; times in UTC to the minute. Takes ApiKeyInfo, which has no secret to leak. */
export function formatKeys(keys: ApiKeyInfo[], options: { width?: number; style?: Style } = {}): string {
  const style = options.style ?? createStyle(false);
  return renderTable(
    [
      { header: "id", style: style.dim },
      { header: "name", shrink: true, min: 8 },
      { header: "created" },
      { header: "last used", style: (text) => (text === "never" ? style.dim(text) : text) },
      { header: "rate limit", align: "right", style: (text) => (text === "default" ? style.dim(text) : text) },
      { header: "state", style: (text) => (text === "active" ? style.green(text) : style.yellow(text)) },
    ],
    keys.map((key) => [
      key.id,
      key.name,
      shortTime(key.created_at),
      shortTime(key.last_used_at),
      key.rate_limit === null ? "default" : `${key.rate_limit}/min`,
      key.revoked_at ? `revoked ${shortTime(key.revoked_at)}` : "active",
    ]),
    { ...(options.width === undefined ? {} : { width: options.width }), headerStyle: style.bold },
  );
}

const revoke = defineCommand({
  meta: { name: "revoke", description: "Revoke an API key by id; a running server refuses it from the next request." },
  args: { id: { type: "positional", description: "Key id (from keys list)", required: true } },
  async run({ args }) {
    if (!(await withLocalKeys((keys) => keys.revoke(args.id)))) throw new AppError("NOT_FOUND", `no active key with id ${args.id}`);
    console.log(`revoked key ${args.id}`);
  },
});

export default defineCommand({
  meta: { name: "keys", description: "Manage API keys where the server keeps them: Redis with REDIS_URL, else DATA_DIR (works while the server runs)." },
  subCommands: { create, list, revoke },
});

// --- internal ---

function parseRateLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw invalidParameter("--rate-limit must be a whole number of requests per minute, at least 1");
  return n;
}
