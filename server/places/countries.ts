import { nameKey } from "./names.ts";

/*
 * Countries and US states by name: ISO 3166-1 alpha-2 codes with CLDR's English short names, the
 * other names people and job boards use, and the 50 states and DC. The one table of countries: a
 * posting's location at load and a country named in a query both resolve here.
 */

/**
 * The country code for a name ("Germany", "united states", "Türkiye"), an alias ("USA", "UK",
 * "England", "Czech Republic") or an uppercase alpha-2 code ("DE"); undefined when unknown.
 * Lowercase two-letter words are not codes ("in", "me"); "us" and "uk" are aliases all the same.
 */
export function countryCode(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^[A-Z]{2}$/.test(trimmed) && COUNTRY_NAMES.has(trimmed)) return trimmed;
  return BY_NAME.get(countryKey(trimmed));
}

/** The two-letter abbreviation of a US state (or DC) given by abbreviation ("CA") or name ("California"). */
export function usState(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^[A-Z]{2}$/.test(trimmed)) return US_STATES.has(trimmed) ? trimmed : undefined;
  return STATE_BY_NAME.get(countryKey(trimmed));
}

/** Every country code with its English name and other names (the name first). */
export function countryNames(): Array<[code: string, names: string[]]> {
  return [...COUNTRY_NAMES].map(([code, name]) => [code, [name, ...(COUNTRY_ALIASES[code]?.split(";").map((a) => a.trim()) ?? [])]]);
}

// --- internal ---

/** A name's key for these tables: "The Gambia" is Gambia and "Saint Lucia" St. Lucia, however written. */
function countryKey(text: string): string {
  return nameKey(text).replace(/^the /, "").replace(/\bsaint\b/g, "st");
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
  US: "usa; us; u.s.; u.s.a.; united states of america; america; the us; the states",
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
for (const [code, name] of COUNTRY_NAMES) BY_NAME.set(countryKey(name), code);
for (const [code, names] of Object.entries(COUNTRY_ALIASES)) {
  for (const name of names.split(";")) BY_NAME.set(countryKey(name), code);
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

const STATE_BY_NAME = new Map<string, string>([...US_STATES].map(([code, name]) => [countryKey(name), code]));
for (const name of ["dc", "washington dc"]) STATE_BY_NAME.set(name, "DC");
