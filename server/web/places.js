// The filters' choices from the service: the cities with postings (GET /v1/cities) as suggestions for
// the city field, narrowed to the chosen country, the countries they are in, and the sources (GET /v1/filters).
import { api } from "./api.js";

let cities = [];

/** Loads the cities and fills the country choices (keeping `addressCountry`, the one the address names). */
export async function loadCities(ui, report, addressCountry) {
  try {
    const body = await api("/v1/cities");
    cities = body.cities;
  } catch (error) {
    report(error);
    return;
  }
  const names = new Intl.DisplayNames(undefined, { type: "region" });
  const countries = [...new Set(cities.map((c) => c.country).filter(Boolean))]
    .map((code) => ({ code, name: safeRegionName(names, code) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const chosen = ui.country.value || addressCountry;
  ui.country.replaceChildren(ui.country.options[0]);
  for (const { code, name } of countries) ui.country.append(new Option(`${name} (${code})`, code));
  if (chosen && !countries.some((c) => c.code === chosen)) ui.country.append(new Option(chosen, chosen));
  ui.country.value = chosen;
  fillCityOptions(ui);
}

/** The source filter lists the sources the postings come from, with their counts (keeping `addressSource`). */
export async function loadSources(ui, report, addressSource) {
  let values;
  try {
    values = await api("/v1/filters");
  } catch (error) {
    report(error);
    return;
  }
  const chosen = ui.source.value || addressSource;
  ui.source.replaceChildren(ui.source.options[0]);
  for (const { value, count } of values.source) ui.source.append(new Option(`${value} (${count})`, value));
  if (chosen && !values.source.some((s) => s.value === chosen)) ui.source.append(new Option(chosen, chosen));
  ui.source.value = chosen;
}

/** Whether a city with postings has this name (in this country, when one is chosen). */
export function knownCity(city, country) {
  return cities.some((c) => c.city === city && (!country || c.country === country));
}

export function fillCityOptions(ui) {
  const country = ui.country.value;
  const options = cities
    .filter((c) => !country || c.country === country)
    .map((c) => {
      const option = document.createElement("option");
      option.value = c.city;
      option.label = `${c.country ?? "?"} · ${c.postings} posting${c.postings === 1 ? "" : "s"}`;
      return option;
    });
  ui.cityOptions.replaceChildren(...options);
}

function safeRegionName(names, code) {
  try { return names.of(code) ?? code; } catch { return code; }
}
