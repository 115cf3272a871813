import { defineCommand } from "citty";
import { invalidParameter } from "../../shared/errors.ts";
import { configFilePath, maskKey, readConfigFile, resolveSettings, writeConfigFile, type ConfigFile } from "../client.ts";

/** Setting names on the command line → fields of the config file. */
const FIELDS = { url: "url", "api-key": "api_key" } as const;
type SettingName = keyof typeof FIELDS;

const set = defineCommand({
  meta: { name: "set", description: "Store a connection setting in the config file (written readable by you only, 0600)." },
  args: {
    name: { type: "positional", description: "url or api-key", required: true },
    value: { type: "positional", description: "The value; for api-key leave it out to type it unseen (or pipe it in), keeping it out of the terminal and shell history", required: false },
  },
  async run({ args }) {
    const name = settingName(args.name);
    const given = args.value ?? (name === "api-key" ? await readSecret("API key: ") : undefined);
    if (given === undefined) throw invalidParameter("url needs a value, e.g. config set url http://localhost:3000");
    const value = name === "url" ? checkUrl(given) : checkKey(given);
    const path = configFilePath();
    writeConfigFile(path, { ...readConfigFile(path), [FIELDS[name]]: value });
    console.log(`${name} = ${name === "api-key" ? maskKey(value) : value} (saved in ${path})`);
  },
});

const unset = defineCommand({
  meta: { name: "unset", description: "Remove a connection setting from the config file." },
  args: { name: { type: "positional", description: "url or api-key", required: true } },
  run({ args }) {
    const name = settingName(args.name);
    const path = configFilePath();
    const content: ConfigFile = readConfigFile(path);
    if (content[FIELDS[name]] === undefined) return void console.log(`${name} is not set in ${path}`);
    delete content[FIELDS[name]];
    writeConfigFile(path, content);
    console.log(`removed ${name} from ${path}`);
  },
});

const show = defineCommand({
  meta: {
    name: "show",
    description: "Show the connection settings in effect and where each comes from (flags > env > config file > default); the key masked.",
  },
  args: { json: { type: "boolean", description: "Print JSON", default: false } },
  run({ args }) {
    const settings = resolveSettings({});
    const apiKey = settings.apiKey === undefined ? null : maskKey(settings.apiKey);
    if (args.json) {
      return void console.log(
        JSON.stringify({ config_file: settings.configFile, url: settings.url, url_from: settings.sources.url, api_key: apiKey, api_key_from: settings.sources.apiKey ?? null }, null, 2),
      );
    }
    const from = { env: "environment", file: "config file", default: "default", flag: "flag" };
    console.log(`config file  ${settings.configFile}`);
    console.log(`url          ${settings.url}  (${from[settings.sources.url]})`);
    console.log(`api-key      ${apiKey === null ? "not set" : `${apiKey}  (${from[settings.sources.apiKey!]})`}`);
  },
});

export default defineCommand({
  meta: {
    name: "config",
    description: "Connection settings for search and cities, in $XDG_CONFIG_HOME/jobsearch/config.json (default ~/.config/jobsearch/config.json).",
  },
  subCommands: { show, set, unset },
});

// --- internal ---

function settingName(name: string): SettingName {
  const normalized = name === "api_key" ? "api-key" : name;
  if (!Object.hasOwn(FIELDS, normalized)) throw invalidParameter(`unknown setting "${name}": use url or api-key`);
  return normalized as SettingName;
}

/**
 * A secret from stdin: typed on a terminal without echo (raw mode, Enter ends it, Ctrl-C stops), or
 * the first line of a pipe (`printf %s "$KEY" | bun run cli config set api-key`).
 */
async function readSecret(promptText: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    const text = await new Response(Bun.stdin.stream()).text();
    return text.split(/\r?\n/)[0] ?? "";
  }
  process.stderr.write(promptText);
  stdin.setRawMode(true);
  stdin.resume();
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed = "";
      stdin.on("data", (chunk: Buffer) => {
        for (const char of chunk.toString("utf8")) {
          if (char === "\r" || char === "\n") return resolve(typed);
          if (char === "\u0003") return reject(invalidParameter("cancelled"));
          typed = char === "\u007f" || char === "\b" ? typed.slice(0, -1) : typed + char;
        }
      });
    });
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    process.stderr.write("\n");
  }
}

function checkUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidParameter(`url must be an http(s) URL such as http://localhost:3000, got "${value}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalidParameter(`url must start with http:// or https://, got "${value}"`);
  return value.replace(/\/+$/, "");
}

function checkKey(value: string): string {
  const key = value.trim();
  if (key === "") throw invalidParameter("api-key must not be empty");
  return key;
}
