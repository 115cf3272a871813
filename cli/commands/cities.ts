import { defineCommand } from "citty";
import type { CityCounts } from "../../shared/search.ts";
import { CONNECTION_ARGS, citiesRemote, clientSettings } from "../client.ts";
import { colorEnabled, createStyle, renderTable, terminalWidth, type Style } from "../format.ts";

export default defineCommand({
  meta: {
    name: "cities",
    description: "List the cities that have postings, with their country and posting count (GET /v1/cities).",
  },
  args: {
    ...CONNECTION_ARGS,
    json: { type: "boolean", description: "Print the raw JSON response", default: false },
  },
  async run({ args }) {
    const response = await citiesRemote(clientSettings(args));
    if (args.json) return void console.log(JSON.stringify(response, null, 2));
    const style = createStyle(colorEnabled());
    if (response.cities.length > 0) console.log(formatCities(response.cities, { width: terminalWidth(), style }));
    const postings = response.cities.reduce((sum, city) => sum + city.postings, 0);
    console.log(style.dim(`${response.total} cities, ${postings} postings with a city`));
  },
});

export function formatCities(cities: CityCounts["cities"], options: { width?: number; style?: Style } = {}): string {
  const style = options.style ?? createStyle(false);
  return renderTable(
    [
      { header: "city", shrink: true, min: 8 },
      { header: "country", style: (text) => (text === "—" ? style.dim(text) : text) },
      { header: "postings", align: "right" },
    ],
    cities.map((entry) => [entry.city, entry.country ?? "—", String(entry.postings)]),
    { ...(options.width === undefined ? {} : { width: options.width }), headerStyle: (text) => style.bold(text) },
  );
}
