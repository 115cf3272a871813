import { defineCommand } from "citty";
import { CONNECTION_ARGS, clientSettings, similarRemote } from "../client.ts";
import { paramArgs, paramBody, printPage, withCliOrder } from "./search.ts";

export default defineCommand({
  meta: {
    name: "similar",
    description: "Postings similar to one (GET /v1/jobs/{id}/similar), best first, with the search's filters and paging.",
  },
  args: {
    id: { type: "positional", description: "The posting's id (the id column of search --json, or the job page)", required: true },
    ...paramArgs(["understand"]),
    ...CONNECTION_ARGS,
    json: { type: "boolean", description: "Print the raw JSON response", default: false },
  },
  async run({ args, rawArgs }) {
    const body = withCliOrder(paramBody(args, rawArgs));
    const response = await similarRemote(clientSettings(args), args.id, body);
    if (args.json) return void console.log(JSON.stringify(response, null, 2));
    printPage(response, body);
  },
});
