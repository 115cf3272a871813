import { defineCommand } from "citty";
import { AppError } from "../../shared/errors.ts";
import type { SavedSearch } from "../../shared/saved.ts";
import { CONNECTION_ARGS, clientSettings, savedRemote, type ClientSettings } from "../client.ts";
import { colorEnabled, createStyle, note, renderTable, shortTime, terminalWidth } from "../format.ts";
import { formatResults, paramArgs, paramBody } from "./search.ts";

/*
 * `saved add|list|new|rm`: saved searches on the running service (/v1/saved-searches, ours). A saved
 * search is named by its id or its name. `new` prints the postings loaded since the last `new` that
 * match, each once.
 */

const add = defineCommand({
  meta: { name: "add", description: "Save a search under a name (the search's flags as for `search`); prints its id and feed URL." },
  args: {
    name: { type: "positional", description: "A short name for it", required: true },
    query: { type: "positional", description: "What to look for, in words or sentences", required: true },
    ...paramArgs(),
    "webhook-url": { type: "string", description: "POST the new matches here (signed) after each load; the secret is printed once" },
    ...CONNECTION_ARGS,
    json: { type: "boolean", description: "Print the raw JSON response", default: false },
  },
  async run({ args, rawArgs }) {
    const body: Record<string, unknown> = { name: args.name, q: args.query, ...paramBody(args, rawArgs) };
    if (args["webhook-url"] !== undefined) body.webhook_url = args["webhook-url"];
    const created = await savedRemote.add(clientSettings(args), body);
    if (args.json) return void console.log(JSON.stringify(created, null, 2));
    console.log(`saved ${created.id} (${created.name})\nfeed: ${created.feed_url}`);
    if (created.webhook_secret) console.log(`webhook secret (shown only now): ${created.webhook_secret}`);
    note("postings loaded from now on are new to it: `saved new` lists them once");
  },
});

const list = defineCommand({
  meta: { name: "list", description: "List your saved searches: id, name, query, created, feed URL." },
  args: { ...CONNECTION_ARGS, json: { type: "boolean", description: "Print the raw JSON response", default: false } },
  async run({ args }) {
    const { saved_searches } = await savedRemote.list(clientSettings(args));
    if (args.json) return void console.log(JSON.stringify(saved_searches, null, 2));
    if (saved_searches.length === 0) return void console.log("no saved searches (save one with `saved add NAME QUERY`)");
    const style = createStyle(colorEnabled());
    console.log(renderTable(
      [{ header: "id", style: style.dim }, { header: "name", shrink: true, min: 6 }, { header: "query", shrink: true, min: 8 }, { header: "created" }, { header: "feed", shrink: true, min: 10 }],
      saved_searches.map((s) => [s.id, s.name, String(s.params.q ?? ""), shortTime(s.created_at), s.feed_url]),
      { width: terminalWidth(), headerStyle: (text) => style.bold(text) },
    ));
  },
});

const fresh = defineCommand({
  meta: { name: "new", description: "The postings loaded since the last check that match a saved search, best first; they are then marked seen." },
  args: {
    search: { type: "positional", description: "The saved search's id or name", required: true },
    since: { type: "string", description: "Look from this cursor (an earlier answer's) instead; nothing is marked seen" },
    ...CONNECTION_ARGS,
    json: { type: "boolean", description: "Print the raw JSON response", default: false },
  },
  async run({ args }) {
    const settings = clientSettings(args);
    const saved = await resolve(settings, args.search);
    const response = await savedRemote.fresh(settings, saved.id, args.since);
    if (args.json) return void console.log(JSON.stringify(response, null, 2));
    const style = createStyle(colorEnabled());
    if (response.results.length > 0) console.log(formatResults(response.results, { width: terminalWidth(), style }));
    console.log(style.dim(`${response.total} new for "${saved.name}" since ${shortTime(response.since)} (cursor ${response.cursor})`));
  },
});

const rm = defineCommand({
  meta: { name: "rm", description: "Delete a saved search (its feed URL stops working)." },
  args: { search: { type: "positional", description: "The saved search's id or name", required: true }, ...CONNECTION_ARGS },
  async run({ args }) {
    const settings = clientSettings(args);
    const saved = await resolve(settings, args.search);
    await savedRemote.remove(settings, saved.id);
    console.log(`deleted ${saved.id} (${saved.name})`);
  },
});

export default defineCommand({
  meta: { name: "saved", description: "Saved searches on the service: add, list, new (what was loaded since the last look), rm." },
  subCommands: { add, list, new: fresh, rm },
});

// --- internal ---

/** The saved search named by id or name; NOT_FOUND otherwise. */
async function resolve(settings: ClientSettings, idOrName: string): Promise<SavedSearch> {
  const { saved_searches } = await savedRemote.list(settings);
  const found = saved_searches.find((s) => s.id === idOrName) ?? saved_searches.find((s) => s.name === idOrName.trim());
  if (!found) throw new AppError("NOT_FOUND", `no saved search has the id or name ${JSON.stringify(idOrName)} (see \`saved list\`)`);
  return found;
}
