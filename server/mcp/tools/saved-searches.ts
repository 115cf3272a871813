import { z } from "zod";
import { AppError } from "../../../shared/errors.ts";
import { CreatedSavedSearchSchema, NewJobsSchema, parseCursor, SAVED_NAME_MAX, SavedSearchListSchema } from "../../../shared/saved.ts";
import { SearchArgumentsSchema } from "../../../shared/search.ts";
import { claimNewMatches, newJobsBody, newMatchesSince } from "../../saved/new-jobs.ts";
import { createSavedSearch, findSavedSearch, listSavedSearches } from "../../saved/saved.ts";
import { READ_ONLY, callerOf, jsonSchema, readArgs, type McpTool } from "../tool.ts";

/*
 * Saved searches over MCP (ours; REST: /v1/saved-searches): save a search, list them, and ask what
 * is new. Each is the calling principal's (its API key, or the OAuth user's); another's is not found.
 */

const SaveInput = SearchArgumentsSchema.extend({
  name: z.string().describe(`A short name for the saved search (at most ${SAVED_NAME_MAX} characters, unique among yours)`),
  webhook_url: z.string().optional().describe("Optional: an http(s) URL that gets the new matches POSTed, signed, after each load"),
});

export const saveSearchTool: McpTool = {
  definition: {
    name: "save_search",
    title: "Save a search",
    description: [
      "Saves a search under a name, with the same arguments as search_jobs (query and filters), so that check_new_jobs can later return only the postings loaded since.",
      "Only postings loaded after saving are new to it. The result carries its id and feed_url, an Atom feed of its new matches that any feed reader can read without a key.",
    ].join(" "),
    inputSchema: jsonSchema(SaveInput),
    outputSchema: jsonSchema(CreatedSavedSearchSchema),
    annotations: { title: "Save a search", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  async call(args, deps) {
    const caller = callerOf(deps);
    return createSavedSearch({ ...deps, saved: caller.saved, loads: caller.loads, config: caller.config }, caller.owner, args, "mcp", caller.base);
  },
};

export const listSavedSearchesTool: McpTool = {
  definition: {
    name: "list_saved_searches",
    title: "List saved searches",
    description: "Your saved searches, oldest first: id, name, the search's arguments (named as REST names them: q for query), feed_url and the cursor up to which check_new_jobs returned postings.",
    inputSchema: jsonSchema(z.object({})),
    outputSchema: jsonSchema(SavedSearchListSchema),
    annotations: { title: "List saved searches", ...READ_ONLY },
  },
  async call(_, deps) {
    const caller = callerOf(deps);
    const saved = await listSavedSearches({ ...deps, saved: caller.saved, loads: caller.loads, config: caller.config }, caller.owner, caller.base);
    return { total: saved.length, saved_searches: saved };
  },
};

const CheckInput = z.object({
  id: z.string().optional().describe("The saved search's id (from save_search or list_saved_searches)"),
  name: z.string().optional().describe("Or its name"),
  since: z.string().optional().describe("Optional: a cursor from an earlier answer; then the postings after it are returned and nothing is marked seen"),
});

export const checkNewJobsTool: McpTool = {
  definition: {
    name: "check_new_jobs",
    title: "Check a saved search for new jobs",
    description: [
      "The postings loaded since the last check that match a saved search, best first (at most 100), each returned once: the check marks them seen.",
      "Name the saved search by id or name. The answer has the search_jobs result fields, and cursor (pass it as since to look again from there without marking anything).",
    ].join(" "),
    inputSchema: jsonSchema(CheckInput),
    outputSchema: jsonSchema(NewJobsSchema),
    annotations: { title: "Check a saved search for new jobs", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  async call(args, deps) {
    const caller = callerOf(deps);
    const { id, name, since } = readArgs(CheckInput, args);
    const savedDeps = { ...deps, saved: caller.saved, loads: caller.loads, config: caller.config };
    let record;
    if (id !== undefined) record = await findSavedSearch(savedDeps, caller.owner, id);
    else if (name !== undefined) record = (await caller.saved.list(caller.owner)).find((saved) => saved.name === name.trim());
    else throw new AppError("INVALID_PARAMETER", "id or name is required: which saved search to check (list_saved_searches lists them)");
    if (!record) throw new AppError("NOT_FOUND", "saved search not found");
    const found = since === undefined ? await claimNewMatches(savedDeps, record) : await newMatchesSince(savedDeps, record, parseCursor(since));
    return newJobsBody(found);
  },
};
