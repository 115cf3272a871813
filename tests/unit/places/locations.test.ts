/** Reading a CSV's location text: city, country and remote from "City, State, Country"; country and US state names. */
import { describe, expect, test } from "bun:test";
import { countryCode, usState } from "../../../server/places/countries.ts";
import { parseLocation } from "../../../server/places/location.ts";

describe("locations", () => {
  test.each([
    ["San Francisco, CA, US", { city: "San Francisco", country: "US", remote: false }],
    ["New York, NY", { city: "New York", country: "US", remote: false }],
    ["Austin, TX, USA", { city: "Austin", country: "US", remote: false }],
    ["Dover, DE", { city: "Dover", country: "US", remote: false }],
    ["Washington, DC", { city: "Washington", country: "US", remote: false }],
    ["Atlanta, Georgia", { city: "Atlanta", country: "US", remote: false }],
    ["Texas, United States", { country: "US", remote: false }],
    ["CA", { country: "US", remote: false }],
    ["Berlin, Germany", { city: "Berlin", country: "DE", remote: false }],
    ["Berlin, Berlin, Germany", { city: "Berlin", country: "DE", remote: false }],
    ["London, England, UK", { city: "London", country: "GB", remote: false }],
    ["London, England", { city: "London", country: "GB", remote: false }],
    ["Toronto, ON, CA", { city: "Toronto", country: "CA", remote: false }],
    ["Toronto, ON", { city: "Toronto", remote: false }],
    ["Paris, FR", { city: "Paris", country: "FR", remote: false }],
    ["Bengaluru, Karnataka, India", { city: "Bengaluru", country: "IN", remote: false }],
    ["Zürich, Switzerland", { city: "Zürich", country: "CH", remote: false }],
    ["Singapore", { country: "SG", remote: false }],
    ["Remote", { remote: true }],
    ["Remote, US", { country: "US", remote: true }],
    ["Austin, TX (Remote)", { city: "Austin", country: "US", remote: true }],
    ["Denver, CO (Hybrid)", { city: "Denver", country: "US", remote: false }],
    ["", { remote: false }],
  ])("%p", (text, expected) => {
    expect(parseLocation(text)).toEqual(expected);
  });

  test("every country JobSpy's Indeed search offers, by its name", () => {
    const names: Record<string, string> = {
      Argentina: "AR", Australia: "AU", Austria: "AT", Bahrain: "BH", Belgium: "BE", Brazil: "BR", Canada: "CA", Chile: "CL",
      China: "CN", Colombia: "CO", "Costa Rica": "CR", "Czech Republic": "CZ", Denmark: "DK", Ecuador: "EC", Egypt: "EG",
      Finland: "FI", France: "FR", Germany: "DE", Greece: "GR", "Hong Kong": "HK", Hungary: "HU", India: "IN", Indonesia: "ID",
      Ireland: "IE", Israel: "IL", Italy: "IT", Japan: "JP", Kuwait: "KW", Luxembourg: "LU", Malaysia: "MY", Mexico: "MX",
      Morocco: "MA", Netherlands: "NL", "New Zealand": "NZ", Nigeria: "NG", Norway: "NO", Oman: "OM", Pakistan: "PK",
      Panama: "PA", Peru: "PE", Philippines: "PH", Poland: "PL", Portugal: "PT", Qatar: "QA", Romania: "RO",
      "Saudi Arabia": "SA", Singapore: "SG", "South Africa": "ZA", "South Korea": "KR", Spain: "ES", Sweden: "SE",
      Switzerland: "CH", Taiwan: "TW", Thailand: "TH", Turkey: "TR", "Türkiye": "TR", Ukraine: "UA",
      "United Arab Emirates": "AE", UK: "GB", "United Kingdom": "GB", USA: "US", "United States": "US", Uruguay: "UY",
      Venezuela: "VE", Vietnam: "VN",
    };
    for (const [name, code] of Object.entries(names)) {
      expect([name, countryCode(name)]).toEqual([name, code]);
      expect([name, countryCode(name.toLowerCase())]).toEqual([name, code]);
    }
  });

  test("codes are uppercase two-letter ISO codes; lowercase words are not codes; states by name or abbreviation", () => {
    expect(countryCode("DE")).toBe("DE");
    expect(countryCode("UK")).toBe("GB");
    expect(countryCode("in")).toBeUndefined();
    expect(countryCode("QQ")).toBeUndefined();
    expect(countryCode("Atlantis")).toBeUndefined();
    expect(countryCode("Côte d’Ivoire")).toBe("CI");
    expect(countryCode("Bosnia and Herzegovina")).toBe("BA");
    expect(usState("CA")).toBe("CA");
    expect(usState("new york")).toBe("NY");
    expect(usState("ZZ")).toBeUndefined();
  });
});
