/**
 * Place names → the fields of a posting: ISO 3166-1 alpha-2 country codes from country names,
 * codes and common aliases, US states by abbreviation or name, and `parseLocation` for the
 * free-text locations job boards print ("San Francisco, CA, US", "Berlin, Germany", "Remote").
 */

export interface ParsedLocation {
  city?: string;
  /** ISO 3166-1 alpha-2, uppercase. */
  country?: string;
  /** The text said the job is remote ("Remote", "Anywhere", "(Remote)"). */
  remote: boolean;
}

/**
 * The country code for a name ("Germany", "united states", "Türkiye"), an alias ("USA", "UK",
 * "England", "Czech Republic") or an uppercase alpha-2 code ("DE"); undefined when unknown.
 * Lowercase two-letter words are not codes ("in", "me"); "us" and "uk" are aliases all the same.
 */
export function countryCode(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^[A-Z]{2}$/.test(trimmed) && COUNTRY_NAMES.has(trimmed)) return trimmed;
  return BY_NAME.get(nameKey(trimmed));
}

/** The two-letter abbreviation of a US state (or DC) given by abbreviation ("CA") or name ("California"). */
export function usState(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^[A-Z]{2}$/.test(trimmed)) return US_STATES.has(trimmed) ? trimmed : undefined;
  return STATE_BY_NAME.get(nameKey(trimmed));
}

/**
 * Splits a board's location text into city, country and a remote flag, reading its comma-separated
 * parts from the end:
 * - "Remote", "Anywhere", "Worldwide", "Work from home" parts and a "(Remote)" suffix set `remote`;
 * - with two parts, the last one is a US state first ("Sacramento, CA", "Dover, DE", "Atlanta, Georgia"
 *   are in the US), and so is a lone state abbreviation ("CA"); otherwise the last part is a country
 *   when it is a country name, an alias or an uppercase two-letter code ("Berlin, Germany",
 *   "Toronto, ON, CA"), or the US when it is a US state ("Texas");
 * - of what is left, the first part is the city and the rest (a state, province or county) is dropped,
 *   unless all that is left is a US state ("Texas, United States" has no city).
 */
export function parseLocation(text: string | undefined | null): ParsedLocation {
  let remote = false;
  const parts: string[] = [];
  for (let part of (text ?? "").split(",")) {
    part = part.replace(/\s*\((remote|hybrid|on-?site)\)\s*$/i, (_, kind: string) => {
      if (kind.toLowerCase() === "remote") remote = true;
      return "";
    }).trim();
    if (part === "") continue;
    if (REMOTE_WORDS.test(part)) remote = true;
    else parts.push(part);
  }
  if (parts.length === 0) return { remote };

  const last = parts[parts.length - 1]!;
  const stateFirst = parts.length === 2 || (parts.length === 1 && /^[A-Z]{2}$/.test(last));
  const lastIsState = usState(last) !== undefined && (stateFirst || countryCode(last) === undefined);
  const country = lastIsState ? "US" : countryCode(last);
  if (country !== undefined) parts.pop();
  // "Texas, United States": all that is left before the country is a state, not a city.
  const onlyAState = !lastIsState && parts.length === 1 && country === "US" && usState(parts[0]!) !== undefined;
  const city = onlyAState ? undefined : parts[0];
  return { ...(city !== undefined ? { city } : {}), ...(country !== undefined ? { country } : {}), remote };
}

// --- internal ---

const REMOTE_WORDS = /^(remote|anywhere|worldwide|work from home|wfh)$/i;

/** Lowercase, without accents, "&" as "and", no dots or apostrophes, no leading "the". */
function nameKey(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[.'’]/g, "")
    .replace(/\bsaint\b/g, "st")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^the /, "");
}

/** ISO 3166-1 alpha-2 codes with CLDR's English short names, plus Kosovo (XK). */
const COUNTRY_TABLE = `
AD Andorra; AE United Arab Emirates; AF Afghanistan; AG Antigua & Barbuda; AI Anguilla; AL Albania; AM Armenia
AO Angola; AQ Antarctica; AR Argentina; AS American Samoa; AT Austria; AU Australia; AW Aruba; AX Åland Islands
AZ Azerbaijan; BA Bosnia & Herzegovina; BB Barbados; BD Bangladesh; BE Belgium; BF Burkina Faso; BG Bulgaria
BH Bahrain; BI Burundi; BJ Benin; BL St. Barthélemy; BM Bermuda; BN Brunei; BO Bolivia; BQ Caribbean Netherlands
BR Brazil; BS Bahamas; BT Bhutan; BV Bouvet Island; BW Botswana; BY Belarus; BZ Belize; CA Canada
CC Cocos (Keeling) Islands; CD Congo - Kinshasa; CF Central African Republic; CG Congo - Brazzaville
CH Switzerland; CI Côte d’Ivoire; CK Cook Islands; CL Chile; CM Cameroon; CN China; CO Colombia; CR Costa Rica
CU Cuba; CV Cape Verde; CW Curaçao; CX Christmas Island; CY Cyprus; CZ Czechia; DE Germany; DJ Djibouti
DK Denmark; DM Dominica; DO Dominican Republic; DZ Algeria; EC Ecuador; EE Estonia; EG Egypt; EH Western Sahara
ER Eritrea; ES Spain; ET Ethiopia; FI Finland; FJ Fiji; FK Falkland Islands; FM Micronesia; FO Faroe Islands
FR France; GA Gabon; GB United Kingdom; GD Grenada; GE Georgia; GF French Guiana; GG Guernsey; GH Ghana
GI Gibraltar; GL Greenland; GM Gambia; GN Guinea; GP Guadeloupe; GQ Equatorial Guinea; GR Greece
GS South Georgia & South Sandwich Islands; GT Guatemala; GU Guam; GW Guinea-Bissau; GY Guyana
HK Hong Kong SAR China; HM Heard & McDonald Islands; HN Honduras; HR Croatia; HT Haiti; HU Hungary; ID Indonesia
IE Ireland; IL Israel; IM Isle of Man; IN India; IO British Indian Ocean Territory; IQ Iraq; IR Iran; IS Iceland
IT Italy; JE Jersey; JM Jamaica; JO Jordan; JP Japan; KE Kenya; KG Kyrgyzstan; KH Cambodia; KI Kiribati
KM Comoros; KN St. Kitts & Nevis; KP North Korea; KR South Korea; KW Kuwait; KY Cayman Islands; KZ Kazakhstan
LA Laos; LB Lebanon; LC St. Lucia; LI Liechtenstein; LK Sri Lanka; LR Liberia; LS Lesotho; LT Lithuania
LU Luxembourg; LV Latvia; LY Libya; MA Morocco; MC Monaco; MD Moldova; ME Montenegro; MF St. Martin
MG Madagascar; MH Marshall Islands; MK North Macedonia; ML Mali; MM Myanmar (Burma); MN Mongolia
MO Macao SAR China; MP Northern Mariana Islands; MQ Martinique; MR Mauritania; MS Montserrat; MT Malta
MU Mauritius; MV Maldives; MW Malawi; MX Mexico; MY Malaysia; MZ Mozambique; NA Namibia; NC New Caledonia
NE Niger; NF Norfolk Island; NG Nigeria; NI Nicaragua; NL Netherlands; NO Norway; NP Nepal; NR Nauru; NU Niue
NZ New Zealand; OM Oman; PA Panama; PE Peru; PF French Polynesia; PG Papua New Guinea; PH Philippines
PK Pakistan; PL Poland; PM St. Pierre & Miquelon; PN Pitcairn Islands; PR Puerto Rico
PS Palestinian Territories; PT Portugal; PW Palau; PY Paraguay; QA Qatar; RE Réunion; RO Romania; RS Serbia
RU Russia; RW Rwanda; SA Saudi Arabia; SB Solomon Islands; SC Seychelles; SD Sudan; SE Sweden; SG Singapore
SH St. Helena; SI Slovenia; SJ Svalbard & Jan Mayen; SK Slovakia; SL Sierra Leone; SM San Marino; SN Senegal
SO Somalia; SR Suriname; SS South Sudan; ST São Tomé & Príncipe; SV El Salvador; SX Sint Maarten; SY Syria
SZ Eswatini; TC Turks & Caicos Islands; TD Chad; TF French Southern Territories; TG Togo; TH Thailand
TJ Tajikistan; TK Tokelau; TL Timor-Leste; TM Turkmenistan; TN Tunisia; TO Tonga; TR Türkiye
TT Trinidad & Tobago; TV Tuvalu; TW Taiwan; TZ Tanzania; UA Ukraine; UG Uganda; UM U.S. Outlying Islands
US United States; UY Uruguay; UZ Uzbekistan; VA Vatican City; VC St. Vincent & Grenadines; VE Venezuela
VG British Virgin Islands; VI U.S. Virgin Islands; VN Vietnam; VU Vanuatu; WF Wallis & Futuna; WS Samoa
XK Kosovo; YE Yemen; YT Mayotte; ZA South Africa; ZM Zambia; ZW Zimbabwe`;

const COUNTRY_NAMES = new Map<string, string>(
  COUNTRY_TABLE.trim().split(/;\s*|\n/).map((entry) => [entry.slice(0, 2), entry.slice(3)] as [string, string]),
);

/** Other names people and job boards use. */
const COUNTRY_ALIASES: Record<string, string> = {
  US: "usa; us; u.s.; u.s.a.; united states of america; america",
  GB: "uk; u.k.; great britain; britain; england; scotland; wales; northern ireland",
  CZ: "czech republic",
  TR: "turkey; turkiye",
  KR: "korea; republic of korea; korea, republic of",
  KP: "democratic people's republic of korea",
  RU: "russian federation",
  VN: "viet nam",
  HK: "hong kong",
  MO: "macau; macao",
  CN: "mainland china; prc; people's republic of china",
  TW: "taiwan, province of china",
  AE: "uae",
  NL: "holland",
  CI: "ivory coast; cote d'ivoire",
  MM: "burma; myanmar",
  PS: "palestine; state of palestine",
  SZ: "swaziland",
  MK: "macedonia",
  CV: "cabo verde",
  TL: "east timor",
  IR: "iran, islamic republic of",
  SY: "syrian arab republic",
  LA: "lao people's democratic republic",
  BO: "bolivia, plurinational state of",
  VE: "venezuela, bolivarian republic of",
  TZ: "tanzania, united republic of",
  MD: "moldova, republic of",
  CD: "democratic republic of the congo; dr congo; drc",
  CG: "republic of the congo; congo",
  VA: "holy see; vatican",
  BN: "brunei darussalam",
  FM: "micronesia, federated states of",
  // a few names in the country's own language
  DE: "deutschland", AT: "osterreich", CH: "schweiz; suisse; svizzera", ES: "espana", IT: "italia",
  BE: "belgique; belgie", PL: "polska", BR: "brasil", SE: "sverige", NO: "norge", DK: "danmark", FI: "suomi",
};

const BY_NAME = new Map<string, string>();
for (const [code, name] of COUNTRY_NAMES) BY_NAME.set(nameKey(name), code);
for (const [code, names] of Object.entries(COUNTRY_ALIASES)) {
  for (const name of names.split(";")) BY_NAME.set(nameKey(name), code);
}

/** The 50 states and the District of Columbia. */
const US_STATES = new Map<string, string>(
  `AL Alabama; AK Alaska; AZ Arizona; AR Arkansas; CA California; CO Colorado; CT Connecticut; DE Delaware;
  DC District of Columbia; FL Florida; GA Georgia; HI Hawaii; ID Idaho; IL Illinois; IN Indiana; IA Iowa;
  KS Kansas; KY Kentucky; LA Louisiana; ME Maine; MD Maryland; MA Massachusetts; MI Michigan; MN Minnesota;
  MS Mississippi; MO Missouri; MT Montana; NE Nebraska; NV Nevada; NH New Hampshire; NJ New Jersey;
  NM New Mexico; NY New York; NC North Carolina; ND North Dakota; OH Ohio; OK Oklahoma; OR Oregon;
  PA Pennsylvania; RI Rhode Island; SC South Carolina; SD South Dakota; TN Tennessee; TX Texas; UT Utah;
  VT Vermont; VA Virginia; WA Washington; WV West Virginia; WI Wisconsin; WY Wyoming`
    .split(/;\s*/)
    .map((entry) => entry.trim())
    .map((entry) => [entry.slice(0, 2), entry.slice(3)] as [string, string]),
);

const STATE_BY_NAME = new Map<string, string>([...US_STATES].map(([code, name]) => [nameKey(name), code]));
for (const name of ["dc", "washington dc"]) STATE_BY_NAME.set(name, "DC");
