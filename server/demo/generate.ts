import catalog from "../../data/demo/catalog.json";

/** One posting, with the field names of the shared data set (moves to shared/job.ts later). */
export interface JobRecord {
  id: string;
  job_title: string;
  company_name: string;
  city: string;
  country: string;
  publish_time: string;
  base_salary: string | null;
  job_url: string;
  job_tags: string[];
  data_source: "indeed" | "linkedin";
  seniority_level: string | null;
  employment_type: string | null;
  job_description: string;
}

type Level = "intern" | "junior" | "mid" | "senior" | "lead" | "director" | "executive";
type Period = "YEAR" | "MONTH" | "HOUR";
type Workplace = "remote" | "hybrid" | "onsite";
type Employment = "FULL_TIME" | "PART_TIME" | "CONTRACTOR" | "INTERN";
type City = (typeof catalog.cities)[number];
type Company = (typeof catalog.companies)[number];
type Country = { name: string; currency: string; annual: number; period: Period };
type LevelInfo = { multiplier: number; weight: number; prefix?: string; suffix?: string; note: string };

/** One occupation; `prefix: false` means the name already carries its rank ("Director of Nursing"). */
interface TitleEntry {
  title: string;
  family: string;
  levels: Level[];
  prefix?: boolean;
  factor: number;
  pay?: Period;
  workplace: Workplace;
  sectors: string[];
  team: string;
  tags: string[];
  duties: string[];
  requirements: string[];
}

// JSON imports widen string unions to string; these casts restore them (the tests check the values).
const TITLES = catalog.titles as TitleEntry[];
const LEVELS = catalog.levels as Record<Level, LevelInfo>;
const COUNTRIES = catalog.countries as Record<string, Country>;
const BLURBS: Record<string, string[]> = catalog.blurbs;
const NOTES: Record<Workplace, string[]> = catalog.workplace_notes;

/** Dates count back from this fixed day, never from "now", so the output never changes. */
const REFERENCE_TIME = Date.UTC(2026, 10, 1);
const DAY_MS = 86_400_000;
const PER_YEAR: Record<Period, number> = { YEAR: 1, MONTH: 12, HOUR: 2080 };
const MAX_SENTENCES = 8;
const MIN_CHARS = 400;

/**
 * Builds `count` fictional postings from data/demo/catalog.json. Pure: the same (count, seed)
 * gives deep-equal output on any machine and any day. Once `count` reaches the number of
 * cities and of titles, every city and every title appears at least once.
 */
export function generateDemoPostings(count = 2400, seed = 42): JobRecord[] {
  const rng = createRng(seed);
  const cityDeck = buildDeck(rng, catalog.cities.map((c) => c.weight), count);
  const titleDeck = buildDeck(rng, TITLES.map(() => 1), count);
  return cityDeck.map((c, i) => buildPosting(rng, i, at(catalog.cities, c), at(TITLES, at(titleDeck, i))));
}

// --- internal ---

type Rng = () => number;

function buildPosting(rng: Rng, index: number, city: City, title: TitleEntry): JobRecord {
  const country = COUNTRIES[city.country];
  if (!country) throw new Error(`catalog: city ${city.name} has unknown country ${city.country}`);
  const stated = rng() < 0.7;
  // An unstated level shows the plain title, which reads as mid-level, unless the name carries a rank.
  const level = stated || title.prefix === false ? pickWeighted(rng, title.levels, (l) => LEVELS[l].weight) : "mid";
  const jobTitle = stated ? rankedTitle(title, level) : title.title;
  const company = pick(rng, catalog.companies.filter((c) => title.sectors.includes("any") || title.sectors.includes(c.sector)));
  const employment = pickEmployment(rng, level, title);
  const workplace = pickWorkplace(rng, title.workplace);
  const visa = rng() < (title.family === "software" ? 0.14 : 0.04);
  const source = rng() < 0.5 ? "indeed" : "linkedin";
  const tags = sample(rng, title.tags, randInt(rng, 3, Math.min(6, title.tags.length)));
  if (workplace !== "onsite") tags.push(workplace);
  if (visa) tags.push("visa-sponsorship");
  if (level === "intern") tags.push("internship");
  return {
    id: `demo-${String(index).padStart(6, "0")}`,
    job_title: jobTitle,
    company_name: company.name,
    city: city.name,
    country: city.country,
    publish_time: formatTime(REFERENCE_TIME - randInt(rng, 1, 180) * DAY_MS + randInt(rng, 6 * 3600, 21 * 3600) * 1000),
    base_salary: rng() < 0.6 ? buildSalary(rng, country, city.pay, title, level, employment) : null,
    job_url: buildUrl(rng, source, index),
    job_tags: tags,
    data_source: source,
    seniority_level: stated ? level : null,
    employment_type: rng() < 0.8 ? employment : null,
    job_description: buildDescription(rng, { title, jobTitle, company, city: city.name, country: country.name, level: stated ? level : undefined, workplace, visa }),
  };
}

function rankedTitle(title: TitleEntry, level: Level): string {
  if (title.prefix === false) return title.title;
  return `${LEVELS[level].prefix ?? ""}${title.title}${LEVELS[level].suffix ?? ""}`;
}

function pickEmployment(rng: Rng, level: Level, title: TitleEntry): Employment {
  if (level === "intern") return "INTERN";
  if (level === "director" || level === "executive") return "FULL_TIME";
  const partTime = title.pay === "HOUR" ? 0.3 : 0.06;
  const r = rng();
  return r < partTime ? "PART_TIME" : r < partTime + 0.1 ? "CONTRACTOR" : "FULL_TIME";
}

function pickWorkplace(rng: Rng, most: Workplace): Workplace {
  const r = rng();
  if (most === "remote") return r < 0.4 ? "remote" : r < 0.75 ? "hybrid" : "onsite";
  if (most === "hybrid") return r < 0.55 ? "hybrid" : "onsite";
  return "onsite";
}

/** Local currency and the period people there quote; pay scales with title, level and city. */
function buildSalary(rng: Rng, country: Country, cityPay: number, title: TitleEntry, level: Level, employment: Employment): string {
  const hourlyWork = employment !== "FULL_TIME" && rng() < 0.7;
  const period = title.pay ?? (hourlyWork ? "HOUR" : country.period);
  const yearly = country.annual * title.factor * LEVELS[level].multiplier * cityPay;
  const middle = (yearly / PER_YEAR[period]) * (0.92 + rng() * 0.16);
  const min = roundNicely(middle * (0.86 + rng() * 0.08));
  const max = roundNicely(middle * (1.06 + rng() * 0.2));
  return `${min.toFixed(2)}-${max.toFixed(2)} ${country.currency}/${period}`;
}

/** Rounds to a step of 0.5, 5, 50 … (under 1,000 steps per value), so ranges look posted: 42.50, 135500.00. */
function roundNicely(value: number): number {
  let step = 0.5;
  while (value / step >= 1000) step *= 10;
  return Math.round(value / step) * step;
}

function buildUrl(rng: Rng, source: "indeed" | "linkedin", index: number): string {
  if (source === "indeed") return `https://www.indeed.com/viewjob?jk=${hex32(rng)}${hex32(rng)}`;
  // The index keeps LinkedIn ids unique; the random tail keeps them from looking sequential.
  return `https://www.linkedin.com/jobs/view/${4_000_000_000 + index * 1000 + randInt(rng, 0, 999)}`;
}

interface DescriptionInput {
  title: TitleEntry;
  jobTitle: string;
  company: Company;
  city: string;
  country: string;
  level: Level | undefined;
  workplace: Workplace;
  visa: boolean;
}

type Extra = "duty" | "requirement" | "benefits" | "closing";

/**
 * Four paragraphs: company and role, duties, requirements, terms. A random target of 5–8 sentences
 * varies the length; drafts under 400 characters take more sentences until they read like a full posting.
 */
function buildDescription(rng: Rng, d: DescriptionInput): string {
  const vars: Record<string, string> = {
    company: d.company.name, focus: d.company.focus, title: d.jobTitle, a_title: `${article(d.jobTitle)} ${d.jobTitle}`,
    team: d.title.team, city: d.city, country: d.country,
  };
  // Everything is drawn up front, so trying a longer draft does not shift the random stream.
  const intro = [pick(rng, BLURBS[d.company.sector] ?? []), pick(rng, catalog.roles)];
  const duties = shuffle(rng, d.title.duties);
  const requirements = shuffle(rng, d.title.requirements);
  const note = d.level ? [LEVELS[d.level].note] : [];
  // The workplace and visa notes back up the tags, so they are never left out.
  const terms = [pick(rng, NOTES[d.workplace]), ...(d.visa ? [pick(rng, catalog.visa_notes)] : [])];
  const benefits = pick(rng, catalog.benefit_lines).replace("{benefits}", joinList(sample(rng, catalog.benefits, randInt(rng, 2, 5))));
  const closing = pick(rng, catalog.closings);
  const minRequirements = note.length > 0 ? 0 : 1;
  const extras = shuffle<Extra>(rng, ["duty", "duty", "benefits", "closing", ...Array<Extra>(2 - minRequirements).fill("requirement")]);
  const fixed = intro.length + 1 + note.length + minRequirements + terms.length;

  const render = (taken: Extra[]) => {
    const has = (extra: Extra) => taken.filter((t) => t === extra).length;
    return [
      intro,
      duties.slice(0, 1 + has("duty")),
      [...note, ...requirements.slice(0, minRequirements + has("requirement"))],
      [...terms, ...(has("benefits") ? [benefits] : []), ...(has("closing") ? [closing] : [])],
    ].map((section) => section.map((t) => fill(t, vars)).join(" ")).join("\n\n");
  };
  let used = Math.min(extras.length, Math.max(0, randInt(rng, 5, MAX_SENTENCES) - fixed));
  let text = render(extras.slice(0, used));
  while (text.length < MIN_CHARS && used < extras.length && fixed + used < MAX_SENTENCES) text = render(extras.slice(0, ++used));
  return text;
}

function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = vars[key];
    if (value === undefined) throw new Error(`catalog: unknown placeholder {${key}} in "${template}"`);
    return value;
  });
}

/** "an iOS Engineer", "an SEO Specialist", "a UX Researcher": acronyms go by the letter's sound. */
function article(phrase: string): string {
  const acronym = /^[A-Z]{2,}\b/.test(phrase);
  return (acronym ? /^[AEFHILMNORSX]/ : /^[aeiou]/i).test(phrase) ? "an" : "a";
}

function joinList(items: string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function formatTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

/** mulberry32: tiny, fast, and the same sequence on every engine (only 32-bit integer math). */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randInt(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

function hex32(rng: Rng): string {
  return Math.floor(rng() * 4294967296).toString(16).padStart(8, "0");
}

function at<T>(items: readonly T[], index: number | undefined): T {
  const item = index === undefined ? undefined : items[index];
  if (item === undefined) throw new Error(`catalog: no entry at index ${index}`);
  return item;
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  return at(items, Math.floor(rng() * items.length));
}

function pickWeighted<T>(rng: Rng, items: readonly T[], weight: (item: T) => number): T {
  let r = rng() * items.reduce((sum, item) => sum + weight(item), 0);
  for (const item of items) if ((r -= weight(item)) < 0) return item;
  return at(items, items.length - 1);
}

/** `k` distinct items in catalog order (the first tags are the most typical ones). */
function sample<T>(rng: Rng, items: readonly T[], k: number): T[] {
  const chosen = new Set<number>();
  while (chosen.size < Math.min(k, items.length)) chosen.add(Math.floor(rng() * items.length));
  return [...chosen].sort((x, y) => x - y).map((i) => at(items, i));
}

/** Indexes for `count` draws: each index once (full coverage), the rest by weight, then shuffled. */
function buildDeck(rng: Rng, weights: number[], count: number): number[] {
  const indexes = weights.map((_, i) => i);
  const deck = indexes.slice(0, count);
  while (deck.length < count) deck.push(pickWeighted(rng, indexes, (i) => at(weights, i)));
  return shuffle(rng, deck);
}

/** A shuffled copy (Fisher–Yates). */
function shuffle<T>(rng: Rng, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [copy[i], copy[j]] = [at(copy, j), at(copy, i)];
  }
  return copy;
}
