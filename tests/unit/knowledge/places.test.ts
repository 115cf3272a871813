import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as knowledge from "../../../server/knowledge/knowledge.ts";
import { KNOWLEDGE_DIR, KNOWLEDGE_FINGERPRINT, loadKnowledge } from "../../../server/knowledge/knowledge.ts";
import { countryCode, countryLookup, countryNames, usState } from "../../../server/places/countries.ts";
import { locatePlace } from "../../../server/places/gazetteer.ts";
import { findPlaces, placeIndex, type DataPlaces } from "../../../server/places/in-query.ts";
import { KNOWN_CURRENCIES, toUsd } from "../../../server/salary/salary.ts";
import { jobsSchema } from "../../../server/store/schema.ts";
import { SEARCH_PARAMS, type ParamSpec } from "../../../shared/search-params.ts";
import { copyWith, loadError, removeCopies } from "../../support/knowledge-copy.ts";

/**
 * Places (countries, their aliases, US states, city short forms, Chinese city names), the notions an
 * inferred filter reads, and the currency rates are knowledge too: data in server/knowledge/ checked at
 * load by the same schema. Every rule rejects a broken copy with a message naming the file and the entry.
 */
afterAll(removeCopies);

const PLACES = "places.json";
const NOTIONS = "notions.json";
const RATES = "currency-rates.json";
const country = (json: any, code: string) => json.COUNTRIES.find((c: { code: string }) => c.code === code);
const index = (code: string) => knowledge.COUNTRIES.findIndex((c) => c.code === code);

describe("the default places, notions and rates", () => {
  test("load, and the exports are their values", () => {
    const loaded = loadKnowledge(KNOWLEDGE_DIR);
    for (const name of ["COUNTRIES", "US_STATES", "CITY_ALIASES", "CJK_CITY_NAMES", "REGIONS", "NOTIONS", "CURRENCY_RATES"] as const) {
      expect(loaded[name]).toEqual(knowledge[name]);
    }
    expect(knowledge.COUNTRIES).toHaveLength(250);
    expect(knowledge.US_STATES).toHaveLength(51);
    expect(countryNames()[0]).toEqual(["AD", ["Andorra"]]);
    expect(countryNames().find(([code]) => code === "US")![1].slice(0, 3)).toEqual(["United States", "usa", "us"]);
    expect([countryCode("Holland"), countryCode("the Gambia"), usState("Texas"), usState("DC")]).toEqual(["NL", "GM", "TX", "DC"]);
    expect(KNOWN_CURRENCIES).toEqual(Object.keys(knowledge.CURRENCY_RATES.perEuro).sort());
    expect(toUsd(100_000, "USD")).toBe(100_000);
  });

  test("the fingerprint the weights record leaves places, notions and rates out", () => {
    const edited = copyWith({
      [PLACES]: (json) => json.CITY_ALIASES["New York"].push("gotham"),
      [NOTIONS]: (json) => json.filters.remote.any.push({ tag: "wfh" }),
      [RATES]: (json) => (json.perEuro.JPY = 127.5),
    });
    expect(loadKnowledge(edited).fingerprint).toBe(KNOWLEDGE_FINGERPRINT);
  });

  test("every notion is a filter's: its name, its column, its values", () => {
    const columns = new Set(jobsSchema("model", 4).fields.map((field) => field.name));
    for (const [name, notion] of Object.entries(knowledge.NOTIONS)) {
      const spec = (SEARCH_PARAMS as Record<string, ParamSpec<unknown>>)[name];
      expect(spec?.filter, `notions.json names "${name}", which is no filter`).toBeDefined();
      const clauses = notion.kind === "boolean" ? notion.any : Object.values(notion.values).flat();
      if (notion.kind === "values") {
        expect(notion.column).toBe((spec!.filter as { column: string }).column);
        for (const value of Object.keys(notion.values)) expect(spec!.schema.safeParse([value]).success, `${name}: ${value}`).toBe(true);
      }
      for (const clause of clauses) if ("column" in clause) expect(columns.has(clause.column), clause.column).toBe(true);
    }
  });
});

describe("adding a city short form is editing places.json", () => {
  const facets: DataPlaces = { cityCounts: [{ city: "Boston", country: "US", postings: 40 }, { city: "Amsterdam", country: "NL", postings: 12 }], located: new Set(["Boston", "Amsterdam"]) };
  const found = (query: string, names?: Parameters<typeof placeIndex>[1]) =>
    findPlaces(query, placeIndex(facets, names), () => 0, () => false).map(({ phrase, filters, confident }) => ({ phrase, filters, confident }));

  test("a copy with one more short form and one more country alias: findPlaces reads both, the default knowledge neither", () => {
    const dir = copyWith({
      [PLACES]: (json) => {
        json.CITY_ALIASES.Boston = ["beantown"];
        country(json, "NL").aliases.push("nederland");
      },
    });
    expect(found("engineer in beantown")).toEqual([]);
    expect(found("nurse in nederland")).toEqual([]);
    const copy = loadKnowledge(dir);
    expect(found("engineer in beantown", copy)).toEqual([{ phrase: "in beantown", filters: { city: "Boston" }, confident: true }]);
    expect(found("beantown nurse", copy)).toEqual([{ phrase: "beantown", filters: { city: "Boston" }, confident: true }]);
    expect(found("nurse in nederland", copy)).toEqual([{ phrase: "in nederland", filters: { country: "NL" }, confident: true }]);
    // The rest reads as before.
    expect(found("engineer in boston, holland", copy)).toEqual(found("engineer in boston, holland"));
  });
});

describe("adding a region is editing places.json", () => {
  const facets: DataPlaces = { cityCounts: [{ city: "Boston", country: "US", postings: 40 }, { city: "Amsterdam", country: "NL", postings: 12 }], located: new Set(["Boston", "Amsterdam"]) };
  const found = (query: string, names?: Parameters<typeof placeIndex>[1]) =>
    findPlaces(query, placeIndex(facets, names), () => 0, () => false).map(({ phrase, filters }) => ({ phrase, filters }));

  test("a copy with a grouping of countries and a metro area: findPlaces reads both as the data's countries and cities, the default knowledge neither", () => {
    const dir = copyWith({
      [PLACES]: (json) => {
        json.REGIONS.push({ name: "Low Countries", aliases: ["lowlands"], countries: ["NL", "BE", "LU"] });
        json.REGIONS.push({ name: "Amsterdam Metropolitan Area", aliases: ["amsterdam area"], around: "Amsterdam, NL", radius_km: 30 });
      },
    });
    expect(found("engineer in the lowlands")).toEqual([]);
    const copy = loadKnowledge(dir);
    expect(found("engineer in the lowlands", copy)).toEqual([{ phrase: "in the lowlands", filters: { country: "NL" } }]);
    expect(found("nurse in the Amsterdam area or Boston", copy)).toEqual([{ phrase: "in the Amsterdam area or Boston", filters: { city: ["Amsterdam", "Boston"] } }]);
  });

  test("a region is one kind, of known codes and earlier regions; its names are no country's", () => {
    const region = (i: number) => knowledge.REGIONS.length + i;
    const message = loadError(
      copyWith({
        [PLACES]: (json) => {
          json.REGIONS.push({ name: "Two Kinds", countries: ["DE"], us_states: ["TX"] });
          json.REGIONS.push({ name: "Nowhere", countries: ["QQ"], aliases: ["holland"] });
          json.REGIONS.push({ name: "Later", of: ["Not Yet"] });
          json.REGIONS.push({ name: "No Radius", around: "Berlin, DE" });
        },
      }),
    );
    expect(message).toContain(`${PLACES} › REGIONS[${region(0)}]: needs exactly one of countries, of, us_states, around (has countries, us_states)`);
    expect(message).toContain(`${PLACES} › REGIONS[${region(1)}].countries[0] "QQ": is no country of COUNTRIES`);
    expect(message).toContain(`${PLACES} › REGIONS[${region(1)}].aliases[0] "holland": is also an alias of NL (COUNTRIES[${index("NL")}])`);
    expect(message).toContain(`${PLACES} › REGIONS[${region(2)}].of[0] "Not Yet": is no region of countries listed before this one`);
    expect(message).toContain(`${PLACES} › REGIONS[${region(3)}]: around and radius_km go together`);
  });

  test("every metro area's centre is a place the gazetteer knows", () => {
    for (const region of knowledge.REGIONS) if ("around" in region) expect(locatePlace(region.around), region.name).toBeDefined();
  });
});

describe("each rule of places.json rejects a broken copy, naming the file and the entry", () => {
  test("a country code that is not two uppercase letters, or is another country's", () => {
    const lower = loadError(copyWith({ [PLACES]: (json) => (country(json, "DE").code = "de") }));
    expect(lower).toContain(`${PLACES} › COUNTRIES[${index("DE")}].code "de": must be two uppercase letters`);
    const twice = loadError(copyWith({ [PLACES]: (json) => (country(json, "AT").code = "DE") }));
    expect(twice).toContain(`${PLACES} › COUNTRIES[${index("DE")}].code "DE": is also the code of COUNTRIES[${index("AT")}]`);
  });

  test("an empty name, an unknown key", () => {
    const message = loadError(copyWith({ [PLACES]: (json) => Object.assign(country(json, "FR"), { name: "", alias: ["la france"] }) }));
    expect(message).toContain(`${PLACES} › COUNTRIES[${index("FR")}].name "": is empty`);
    expect(message).toContain(`${PLACES} › COUNTRIES[${index("FR")}]: Unrecognized key: "alias"`);
  });

  test("an uppercase alias, a duplicate within the list", () => {
    const message = loadError(copyWith({ [PLACES]: (json) => country(json, "NL").aliases.push("Nederland", "holland") }));
    expect(message).toContain(`${PLACES} › COUNTRIES[${index("NL")}].aliases[1] "Nederland": must be lowercase`);
    expect(message).toContain(`${PLACES} › COUNTRIES[${index("NL")}].aliases[2] "holland": is a duplicate of [0]`);
  });

  test("an alias of two countries, or another country's name (case aside)", () => {
    const alias = loadError(copyWith({ [PLACES]: (json) => country(json, "GB").aliases.push("usa") }));
    expect(alias).toMatch(new RegExp(`${PLACES} › COUNTRIES\\[${index("GB")}\\]\\.aliases\\[\\d+\\] "usa": is also an alias of US \\(COUNTRIES\\[${index("US")}\\]\\)`));
    expect(alias).toContain(`${PLACES} › COUNTRIES[${index("US")}].aliases[0] "usa": is also an alias of GB (COUNTRIES[${index("GB")}])`);
    const name = loadError(copyWith({ [PLACES]: (json) => country(json, "AT").aliases.push("germany") }));
    expect(name).toContain(`${PLACES} › COUNTRIES[${index("AT")}].aliases[1] "germany": is also the name of DE (COUNTRIES[${index("DE")}])`);
  });

  test("a name that means two countries as places/ compares names (dots, accents, \"the\" aside) stops the start", () => {
    const loaded = loadKnowledge(copyWith({ [PLACES]: (json) => country(json, "GB").aliases.push("u.s.a") }));
    expect(() => countryLookup(loaded.COUNTRIES)).toThrow(`places.json: "usa" (US) is also a name of GB, compared as "usa"`);
    expect(countryLookup(knowledge.COUNTRIES).get("usa")).toBe("US");
  });

  test("a US state's code: two uppercase letters, one state each", () => {
    const message = loadError(copyWith({ [PLACES]: (json) => Object.assign(json.US_STATES, { 1: { code: "AL", name: "Alaska" }, 2: { code: "Az", name: "Arizona" } }) }));
    expect(message).toContain(`${PLACES} › US_STATES[2].code "Az": must be two uppercase letters`);
    expect(message).toContain(`${PLACES} › US_STATES[1].code "AL": is also the code of US_STATES[0]`);
  });

  test("city short forms: lowercase, one city each, not empty; a Chinese name's English name not empty", () => {
    const message = loadError(
      copyWith({
        [PLACES]: (json) => {
          json.CITY_ALIASES["Los Angeles"].push("LAX");
          json.CITY_ALIASES.Philadelphia.push("manhattan");
          json.CITY_ALIASES.Bengaluru = [];
          json.CJK_CITY_NAMES["北京"] = "";
        },
      }),
    );
    expect(message).toContain(`${PLACES} › CITY_ALIASES.Los Angeles[2] "LAX": must be lowercase`);
    expect(message).toContain(`${PLACES} › CITY_ALIASES.Philadelphia[1] "manhattan": is also a short form of "New York"`);
    expect(message).toContain(`${PLACES} › CITY_ALIASES.Bengaluru: is empty`);
    expect(message).toContain(`${PLACES} › CJK_CITY_NAMES.北京 "": is empty`);
  });
});

describe("each rule of notions.json rejects a broken copy, naming the file and the entry", () => {
  test("a clause of an unknown shape", () => {
    const message = loadError(copyWith({ [NOTIONS]: (json) => json.filters.remote.any.push({ tag: "wfh", title: "wfh" }, { regex: "wfh" }) }));
    expect(message).toContain("(2 problems)");
    expect(message).toContain(`${NOTIONS} › filters.remote.any[2]: is not a known clause: {tag}, {title}, {column, eq} or {column, isNull: true}`);
    expect(message).toContain(`${NOTIONS} › filters.remote.any[3]: is not a known clause`);
  });

  test("a title fragment that does not compile, escapes its group or matches every title", () => {
    const message = loadError(
      copyWith({
        [NOTIONS]: ({ filters: { seniority } }) => {
          seniority.values.senior[0].title = "senior(";
          seniority.values.mid[0].title = "mid)|(level";
          seniority.values.junior[0].title = "junior|";
        },
      }),
    );
    expect(message).toContain(`${NOTIONS} › filters.seniority.values.senior[0].title "senior(": is not a regular expression`);
    expect(message).toContain(`${NOTIONS} › filters.seniority.values.mid[0].title "mid)|(level": is not a regular expression`);
    expect(message).toContain(`${NOTIONS} › filters.seniority.values.junior[0].title "junior|": matches the empty string, so every title`);
  });

  test("a column that is no identifier, isNull other than true, an uppercase tag, an unknown kind, no clauses", () => {
    const message = loadError(
      copyWith({
        [NOTIONS]: ({ filters }) => {
          filters.employment_type.column = "employment_type; DROP";
          filters.employment_type.values.FULL_TIME[0].isNull = false;
          filters.employment_type.values.INTERN[1].tag = "Internship";
          filters.employment_type.values.TEMPORARY = [];
          filters.remote.kind = "flag";
        },
      }),
    );
    expect(message).toContain(`${NOTIONS} › filters.employment_type.column "employment_type; DROP": must be a column name`);
    expect(message).toContain(`${NOTIONS} › filters.employment_type.values.FULL_TIME[0].isNull: must be true`);
    expect(message).toContain(`${NOTIONS} › filters.employment_type.values.INTERN[1].tag "Internship": must be lowercase`);
    expect(message).toContain(`${NOTIONS} › filters.employment_type.values.TEMPORARY: is empty`);
    expect(message).toContain(`${NOTIONS} › filters.remote.kind "flag": is not a notion: "kind" is "boolean" or "values"`);
  });
});

describe("each rule of currency-rates.json rejects a broken copy, naming the file and the entry", () => {
  test("codes of three uppercase letters, positive rates, USD present, EUR 1, a date", () => {
    const message = loadError(
      copyWith({
        [RATES]: (json) => {
          Object.assign(json.perEuro, { usd: 1.3, GBP: 0, CHF: "1.2", EUR: 2 });
          delete json.perEuro.USD;
          json.date = "24 May 2013";
        },
      }),
    );
    expect(message).toContain("(6 problems)");
    expect(message).toContain(`${RATES} › perEuro: key "usd" must be three uppercase letters`);
    expect(message).toContain(`${RATES} › perEuro: lacks USD, which every conversion goes through`);
    expect(message).toContain(`${RATES} › perEuro.GBP: must be a positive finite number`);
    expect(message).toContain(`${RATES} › perEuro.CHF "1.2": must be a positive finite number`);
    expect(message).toContain(`${RATES} › perEuro.EUR: must be 1 (rates are per euro)`);
    expect(message).toContain(`${RATES} › date "24 May 2013": must be a date, YYYY-MM-DD`);
  });

  test("a rate too large to be finite", () => {
    const dir = copyWith();
    const path = join(dir, RATES);
    writeFileSync(path, readFileSync(path, "utf8").replace(/"SEK": [\d.]+/, '"SEK": 1e999'));
    expect(loadError(dir)).toContain(`${path} › perEuro.SEK: must be a positive finite number`);
  });
});
