// Cities and countries for the filters: the cities with postings (GET /v1/cities) as suggestions for
// the city field, narrowed to the chosen country, and the countries they are in as its choices.
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
