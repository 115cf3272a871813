import type { Facets } from "../store/store.ts";
import type { TermStats } from "../store/term-stats.ts";
import { OCCUPATIONS } from "../knowledge/knowledge.ts";
import { hasCjk } from "../text/fold.ts";
import { compactText, contentKeys } from "../text/query-tokens.ts";
import { phrasesAt, phraseStarts } from "../text/phrases.ts";
import { statesPreference } from "../understand/scopes.ts";
import { conditionsIn } from "../understand/understand.ts";
import { languagesOf, levelOnly, seniorityOfTitle, seniorityOfYears, yearsOf } from "./facts.ts";
import { profileSkills, skillKey, type SkillVocabulary } from "./skills.ts";

/*
 * What a résumé or short profile says of the person, read line by line: the jobs held and sought
 * (the knowledge base's occupations), the skills (skills.ts), seniority from titles and years (facts.ts),
 * where and how they want to work (only where the text says so: a location line, "based in",
 * "looking for … in", read by query understanding), and the languages they list. Nothing is kept.
 */

export interface ProfileReading {
  /** Occupations sought first (a wish line: "looking for", "objective", "求职意向"), then those held, most recent first. */
  titles: string[];
  /** The skills named, most mentioned first. */
  skills: string[];
  /** Each skill as the profile writes it, by key, and whether it mentions a skill in any form (skills.ts profileSkills). */
  mentions: { forms: Map<string, string>; has: (key: string) => boolean };
  /** senior, junior, mid, intern or lead, from the titles or the years of experience; null when neither says. */
  seniority: string | null;
  /** Years of experience stated ("8 years", "三年"), the largest; null when none is. */
  years: number | null;
  /** The filters read from where the person wants to work: city, country, remote, employment_type. */
  filters: Record<string, unknown>;
  /** Filters each of which will do, beside `filters` ("remote or Lisbon": `[{remote: true}, {city: "Lisbon"}]`); empty for most. */
  either: Array<Record<string, unknown>>;
  /** Where the person says they are ("Location: Dublin", "based in Denver"): it ranks, it does not filter. */
  nearby: Record<string, unknown>;
  /** Where and how the person would rather work ("ideally remote", "open to roles in Leeds"): it ranks, it does not filter. */
  preferred: Record<string, unknown>;
  /** Spoken languages listed ("Languages: English, German"). */
  languages: string[];
  /** The words searched: the most mentioned skill and the first title (without a title, the three most mentioned skills). */
  query: string;
}

export interface ProfileContext {
  vocabulary: SkillVocabulary;
  facets: Facets;
  stats: TermStats | undefined;
  now: Date;
}

/**
 * Skills put in the searched words beside the title: more drown it, a skill being a rarer word than a title's
 * ("engineering manager java go kafka" finds Go engineers); the others rank the results (match.ts). Without a
 * title, three times as many are searched.
 */
const QUERY_SKILLS = 1;
/** How much a title counts where it is said: in a wish ("looking for"), in the headline (the first lines), elsewhere. */
const TITLE_WEIGHT = { wish: 3, headline: 2, elsewhere: 1 } as const;
const HEADLINE_LINES = 3;
/**
 * A title of one word that ends this many of the knowledge base's longer titles names a kind of job, not
 * one ("engineer" ends 463, "consultant" 23; "recruiter" 4): it counts this much of its line's weight, so
 * it leads only where nothing more telling is said.
 */
const GENERIC_HEADS = 20;
const GENERIC_TITLE = 0.25;

export function readProfile(text: string, context: ProfileContext): ProfileReading {
  const lines = sentencesOf(text);
  const weights = new Map<string, number>();
  // Where the person wants to work wins over conditions stated alone, and both over where they are; within each, the first line saying it.
  const found: Record<Where | "preferred", Record<string, unknown>> = { wish: {}, stated: {}, here: {}, preferred: {} };
  let alternatives: Array<Record<string, unknown>> | undefined;
  // The seniority a title is said with, from the line that counts most (a wish over the headline); in the
  // history, only the first line with a title (the latest job, as CVs list them) speaks: an old "Junior" title does not.
  let titleSeniority: { weight: number; level: string } | undefined;
  let latestJob: { level: string | null } | undefined;
  // Under a header of wishes ("## What I'm after", "Next role:"), every line is one, up to the next header.
  let wishSection = false;
  lines.forEach((line, i) => {
    if (HEADER.test(line)) wishSection = WISH_HEADER.test(line);
    const wish = wishSection || WISH.test(line) || WISH_LABEL.test(line);
    const weight = wish ? TITLE_WEIGHT.wish : i < HEADLINE_LINES ? TITLE_WEIGHT.headline : TITLE_WEIGHT.elsewhere;
    const titles = lineTitles(line);
    for (const { title, generic } of titles) weights.set(title, (weights.get(title) ?? 0) + weight * (generic ? GENERIC_TITLE : 1));
    // A wish says the level sought even of a role the knowledge base does not name ("a staff platform role").
    const level = titles.length > 0 || wish ? seniorityOfTitle(line) : null;
    if (level !== null && weight > TITLE_WEIGHT.elsewhere && weight > (titleSeniority?.weight ?? 0)) titleSeniority = { weight, level };
    if (titles.length > 0 && weight === TITLE_WEIGHT.elsewhere) latestJob ??= { level };
    // Where a wish's sentence says the person is ("Based in Lisbon, open to remote") is no wish.
    const here = wish ? HERE_PHRASE.exec(line) : null;
    if (here) keepFirst(found.here, placeFilters(here[0], context).filters);
    const { where, filters, preferred } = wish ? { where: "wish" as const, ...placeFilters(here ? line.replace(here[0], " ") : line, context) } : conditionsOf(line, context);
    keepFirst(found.preferred, preferred);
    // "Remote or Lisbon": remote and a place in one wish are alternatives, which one set of filters cannot say.
    const { city, country, remote, ...rest } = filters;
    const either = where === "wish" && remote === true && (city !== undefined || country !== undefined);
    keepFirst(found[where], either ? rest : filters);
    if (either) alternatives ??= [{ remote }, Object.fromEntries(Object.entries({ city, country }).filter(([, value]) => value !== undefined))];
  });
  const years = yearsOf(text);
  const languages = languagesOf(lines);
  const { ranked: skills, ...mentions } = profileSkills(text, context.vocabulary);
  // Ties keep the order they were first said in (a Map keeps insertion order; the sort is stable).
  // A title that is only a level ("intern") says the seniority, not the job.
  const titles = [...weights].sort((a, b) => b[1] - a[1]).map(([title]) => title).filter((title) => !levelOnly(title));
  const spoken = new Set(languages.map((language) => language.toLowerCase()));
  const searched = skills.filter((skill) => !spoken.has(skill));
  const filters = { ...found.stated, ...found.wish };
  return {
    titles,
    skills,
    mentions,
    seniority: titleSeniority?.level ?? latestJob?.level ?? seniorityOfYears(years),
    years,
    filters,
    either: alternatives ?? [],
    nearby: found.here,
    // A family the profile requires is not a preference as well.
    preferred: Object.fromEntries(Object.entries(found.preferred).filter(([name]) => !(name in filters))),
    languages,
    // As people write a job's query, the skill before the title ("go backend developer": there "go" is the language).
    query: [...searched.filter(unsaidBy(titles[0])).slice(0, titles.length > 0 ? QUERY_SKILLS : 3 * QUERY_SKILLS), titles[0] ?? ""].join(" ").trim(),
  };
}

// --- internal ---

/** Whether a skill is one the title does not name already ("c++" of "c++ developer"): searching both would only repeat it. */
function unsaidBy(title: string | undefined): (skill: string) => boolean {
  const words = new Set(title === undefined ? [] : skillKey(title).split(" "));
  return (skill) => !skillKey(skill).split(" ").every((word) => words.has(word));
}

/** Adds what `from` says of a filter `into` does not hold yet: the first line saying it wins. */
function keepFirst(into: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(from)) into[name] ??= value;
}

/**
 * A prose line this long that ends without a stop, followed by one starting in lowercase, or itself ending
 * in a word no sentence ends with ("… looking for jobs in" / "Canada"), was wrapped: they are one sentence.
 */
const WRAPPED_LINE = 60;
const OPEN_END = /\b(?:in|to|for|at|of|and|or|the|a|an|with|as|from|on|by|near|into)$/i;

/**
 * The text's sentences: wrapped lines joined again (list items and headers stay apart), then cut at each
 * stop; a list item's or header's later sentences keep its mark, so they are read as part of it.
 */
function sentencesOf(text: string): string[] {
  const joined: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const previous = joined.at(-1);
    if (line === "") joined.push("");
    else if (previous && previous.length >= WRAPPED_LINE && !/[.!?:;。！？：；]$/.test(previous) && (/^\p{Ll}/u.test(line) || OPEN_END.test(previous))) joined[joined.length - 1] = `${previous} ${line}`;
    else joined.push(line);
  }
  return joined.flatMap((line) => {
    const mark = /^[#*•>|-]/.exec(line)?.[0];
    return line.split(/(?<=[.;!?。；！？])\s+/).map((sentence, k) => (k > 0 && mark ? `${mark} ${sentence.trim()}` : sentence.trim()));
  }).filter((line) => line !== "");
}

/** A line that says what the person wants, not what they did (a preference too: `statesPreference`). */
const WISH = /\b(?:looking (?:for|to|at)|looking (?:jobs?|work|roles?|positions?|opportunit\w*)|seeking|searching for|search(?:ing)?(?= .{0,30}\b(?:jobs?|roles?|positions?|work|opportunit\w*)\b)|hoping (?:to|for)|would (?:like|love)(?: to)?|wish(?:ing)? to|(?:my|the) (?:goal|aim) is|want(?:ing)? (?:to )?stay|open for|only in|objective|target(?:ing)?(?: (?:role|position|job)s?|(?=\s*[:：\-–—]))|interested in|want(?:ing)? (?:a|an|to)|open to|available for|considering|only (?:looking|interested|want\w*|open|accept\w*|apply\w*)|aspir\w+|next (?:role|step|position)|transition(?:ing)? (?:in)?to|(?:would|will|only|also) consider|preferences?(?=\s*:)|only(?=\s*(?:[.,;!]|[—–-]\s|please\b|$)))\b|求职|期望|目标职位|意向|希望|寻找|想找|考虑|只找/i;
/** A header: Markdown's, or a short line that ends in a colon. */
const HEADER = /^#|^[^.!?。]{1,40}[:：]$/;
/** A header over what the person wants. */
const WISH_HEADER = /\b(?:after|want\w*|looking|seeking|next|goals?|objectives?|ideal|preferences?|wish\w*|target\w*|aspirations?)\b|求职意向|期望|意向/i;
/**
 * A label of a wish, before a colon ("Desired location: London", "Work type: contract", "Remote: yes",
 * "Relocation: yes, to Amsterdam", 工作地点：深圳): its line is a wish, and a "yes" says the label's condition.
 */
const WISH_LABEL = /^(?:[^:：]{0,20}\b(?:desired|preferred|target|location preference|work (?:type|mode|arrangement)|job type|employment type|availability|available|relocation|remote)\b[^:：]{0,20}|工作地点|工作性质|工作方式|期望[^:：]{0,6}|意向[^:：]{0,6})\s*[:：]/i;
/** A header line of where the person is ("Location: Berlin"). */
const LOCATION_HEADER = /^(?:location|based|home base|address|city|地点|所在地|城市|期望城市|现居)\s*[:：]/i;
/** The words after a phrase to its clause's end: a stop, a comma, a dash, or "and", "but", "I'm"… opening another clause. */
const CLAUSE_REST = String.raw`((?:(?!\s(?:and|but|so|while|where|i|i'm|i’m|for)\b|\s[—–-]\s)[^.;,()\n]){1,60})`;
/** Where the person is, said in a sentence: the words after it, to the clause's end. */
const HERE_PHRASE = new RegExp(String.raw`\b(?:based in|located in|living in|live in|currently in|now in|i'm in|i’m in|i am in|i'm from|i’m from|i am from|work(?:ing)? from(?! home))\b${CLAUSE_REST}`, "i");
/** Where the person will be: a move is a wish. */
const MOVE_PHRASE = new RegExp(String.raw`\b(?:relocat\w*(?: anywhere)? (?:to|in|within)|mov(?:e|ing) to)\b${CLAUSE_REST}`, "i");
/** A short line of conditions only ("Remote only.", "Full-time, London"): understood as a query, all of it became filters. */
const CONDITIONS_LINE = 60;
const CONDITIONS_WORDS = 6;

/** Where a line's conditions come from: a wish, a line of conditions only ("Remote only."), or where the person is. */
type Where = "wish" | "stated" | "here";
/** The conditions a line requires, and those it would rather have (a wish's, a line of conditions'). */
type LineConditions = { where: Where } & Record<"filters" | "preferred", Record<string, unknown>>;

/** The filters a line that is no wish says of where or how the person works (none for most lines). */
function conditionsOf(line: string, context: ProfileContext): LineConditions {
  const none = {};
  if (LOCATION_HEADER.test(line)) return { where: "here", filters: placeFilters(line, context).filters, preferred: none };
  const move = MOVE_PHRASE.exec(line);
  if (move) return { where: "wish", ...placeFilters(move[0], context) };
  const here = HERE_PHRASE.exec(line);
  if (here) return { where: "here", filters: placeFilters(here[0], context).filters, preferred: none };
  // A line that only says what the person would rather have ("Ideally remote, hybrid in Austin works too") ranks, whatever it names.
  if (statesPreference(line)) {
    const { filters, preferred } = placeFilters(line, context);
    return { where: "stated", filters: none, preferred: { ...filters, ...preferred } };
  }
  // A header, a list item or a label ("Skills: …") is no statement of conditions; skipping them keeps a long CV cheap.
  if (line.length > CONDITIONS_LINE || /^[#*•>|-]|[:：]/.test(line) || line.split(/\s+/).length > CONDITIONS_WORDS) return { where: "stated", filters: none, preferred: none };
  const read = understandLine(line, context);
  return read.jobless ? { where: "stated", filters: placeOf(read.filters), preferred: placeOf(read.preferred) } : { where: "stated", filters: none, preferred: none };
}
/** Only these of what a wish line's words say become filters of the match. */
const PLACE_FILTERS = ["city", "country", "remote", "employment_type"];

/**
 * The knowledge base's occupations a line names by one of their titles (the longest where two overlap), as
 * their first titles; `generic` for a title of one word that heads many others ("engineer", "consultant").
 */
function lineTitles(line: string): Array<{ title: string; generic: boolean }> {
  const found: Array<{ title: string; generic: boolean }> = [];
  const keys = contentKeys(line, true);
  for (let i = 0; i < keys.length; ) {
    const longest = phrasesAt(keys, i, TITLES.english, TITLES.starts)[0];
    if (longest !== undefined) found.push({ title: TITLES.english.get(longest.key)!, generic: longest.n === 1 && (TITLES.heads.get(keys[i]!) ?? 0) >= GENERIC_HEADS });
    i += longest?.n ?? 1;
  }
  if (hasCjk(line)) {
    const compact = compactText(line);
    const cjk = TITLES.chinese.find(([text]) => compact.includes(text));
    if (cjk) found.push({ title: cjk[1], generic: false });
  }
  return found;
}

/** Every English title of the knowledge base by its keys → its occupation's first title; Chinese titles compact, longest first. */
const TITLES = (() => {
  const english = new Map<string, string>();
  const chinese: Array<[string, string]> = [];
  for (const occupation of OCCUPATIONS) {
    const name = occupation.titles[0]!.toLowerCase();
    for (const title of occupation.titles) {
      // A Chinese title stays itself: it is what Chinese postings say.
      if (hasCjk(title)) chinese.push([compactText(title), title]);
      else english.set(contentKeys(title, true).join(" "), name);
    }
  }
  english.delete("");
  // How many titles of two words or more end in each word: the nouns that head many jobs.
  const heads = new Map<string, number>();
  for (const key of english.keys()) {
    const words = key.split(" ");
    if (words.length > 1) heads.set(words.at(-1)!, (heads.get(words.at(-1)!) ?? 0) + 1);
  }
  return { english, chinese: chinese.sort((a, b) => b[0].length - a[0].length), starts: phraseStarts(english.keys()), heads };
})();

/** Where and how the person wants to work, as query understanding reads the line (a wish there stays a wish). */
function placeFilters(line: string, context: ProfileContext): Omit<LineConditions, "where"> {
  // "Open to: AE roles, New York City only": a line that says "only" asks for what it names.
  const text = /\bonly\b|只|仅/i.test(line) ? line.replace(/\b(?:open to|ideally|preferably|happy with|fine with|ok with)\b:?/gi, " ") : line;
  // A label's value is what is said ("Remote: 4 years" is no wish); after a "yes" the label too ("Remote: yes"), after a "no" nothing.
  const label = WISH_LABEL.exec(text);
  const value = label ? text.slice(label[0].length) : text;
  const answer = label ? /^\s*(yes|y|no|n)\b/i.exec(value)?.[1] : undefined;
  const said = answer === undefined ? value : /^y/i.test(answer) ? `${label![0].slice(0, -1)} ${value}` : "";
  const read = understandLine(said.slice(0, 300), context);
  return { filters: placeOf(read.filters), preferred: placeOf(read.preferred) };
}

function understandLine(text: string, context: ProfileContext) {
  return conditionsIn(text, { facets: context.facets, stats: context.stats, now: context.now });
}

function placeOf(filters: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(filters).filter(([name]) => PLACE_FILTERS.includes(name)));
}
