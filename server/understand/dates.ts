import type { Finding } from "./finding.ts";

/*
 * Publication time stated in words: "posted in 2015", "from March 2016", "since 2016", "before 2017", "between 2014
 * and 2016", "last month", "past 2 weeks", "this year". Years stand alone too ("go developer 2017")
 * when they lie between 2000 and the clock's year. Relative phrases count from `now` (the server's
 * clock): "last month" is the previous calendar month, "past month" the last 30 days.
 */

/**
 * Time phrases of `text` as since/until filter values. The filters exclude their bound, so a period
 * starting on a day is "since" the last second before it ("2015-12-31 23:59:59") and ends "until"
 * the next period's first day.
 */
export function findDates(text: string, now: Date): Finding[] {
  const found: Finding[] = [];
  const taken: Array<[number, number]> = [];
  for (const rule of RULES) {
    for (const match of text.matchAll(rule.pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (taken.some(([s, e]) => start < e && end > s)) continue;
      const range = rule.range(match.groups ?? {}, now);
      if (range === undefined) continue;
      taken.push([start, end]);
      found.push({ start, end, phrase: match[0].trim(), filters: range, confident: true });
    }
  }
  return found;
}

// --- internal ---

type Range = { since?: string; until?: string };

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH = String.raw`(?<month>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
const YEAR = String.raw`(?<year>(?:19|20)\d\d)`;
const POSTED = String.raw`(?:(?:jobs?\s+|roles?\s+|positions?\s+)?(?:posted|published|listed|advertised|added|from|dated)\s+)?`;
const UNIT = String.raw`(?<unit>days?|weeks?|months?|years?)`;

const RULES: Array<{ pattern: RegExp; range: (groups: Record<string, string | undefined>, now: Date) => Range | undefined }> = [
  {
    // between 2014 and 2016, from 2014 to 2016, 2014-2016
    pattern: new RegExp(String.raw`\b${POSTED}(?:between\s+|from\s+)?(?<a>(?:19|20)\d\d)\s*(?:and|to|through|until|-|–)\s*(?<b>(?:19|20)\d\d)\b`, "gi"),
    range: (g, now) => ordered(yearStart(+g.a!, now), yearStart(+g.b! + 1, now)),
  },
  {
    // from / since / after / before / until March 2016
    pattern: new RegExp(String.raw`\b${POSTED}(?<word>from|since|after|before|until|till|by)\s+${MONTH}\.?\s+${YEAR}\b`, "gi"),
    range: (g, now) => {
      const month = monthStart(+g.year!, g.month!, now);
      if (month === undefined) return undefined;
      const next = addMonths(month, 1);
      return boundFrom(g.word!.toLowerCase(), month, next);
    },
  },
  {
    // (posted in) March 2016
    pattern: new RegExp(String.raw`\b${POSTED}(?:in\s+|during\s+)?${MONTH}\.?,?\s+${YEAR}\b`, "gi"),
    range: (g, now) => {
      const month = monthStart(+g.year!, g.month!, now);
      return month === undefined ? undefined : { since: before(month), until: day(addMonths(month, 1)) };
    },
  },
  {
    // from / since / after / before / until 2016
    pattern: new RegExp(String.raw`\b${POSTED}(?<word>from|since|after|before|until|till|by)\s+${YEAR}\b`, "gi"),
    range: (g, now) => {
      const start = yearStart(+g.year!, now);
      return start === undefined ? undefined : boundFrom(g.word!.toLowerCase(), start, yearStart(+g.year! + 1, now)!);
    },
  },
  {
    // (posted in) 2016, or a year alone
    pattern: new RegExp(String.raw`\b${POSTED}(?:in\s+|during\s+)?${YEAR}\b`, "gi"),
    range: (g, now) => {
      const start = yearStart(+g.year!, now);
      return start === undefined ? undefined : { since: before(start), until: day(yearStart(+g.year! + 1, now) ?? addYears(start, 1)) };
    },
  },
  {
    // in the last / past 3 weeks, last 30 days
    pattern: new RegExp(String.raw`\b${POSTED}(?:(?:with)?in\s+)?(?:the\s+)?(?:last|past)\s+(?<count>\d{1,3}|a|one|two|three|four|six)\s+${UNIT}\b`, "gi"),
    range: (g, now) => ({ since: before(subtract(now, COUNTS[g.count!.toLowerCase()] ?? +g.count!, g.unit!)) }),
  },
  {
    // the last / past week, past month, past year (rolling)
    pattern: new RegExp(String.raw`\b${POSTED}(?:(?:with)?in\s+)?(?:the\s+(?:last|past)|past)\s+(?<unit>day|week|month|year)\b`, "gi"),
    range: (g, now) => ({ since: before(subtract(now, 1, g.unit!)) }),
  },
  {
    // last week / last month / last year (the previous calendar one), this week / month / year, today, yesterday
    pattern: new RegExp(String.raw`\b${POSTED}(?<which>last|this)\s+(?<unit>week|month|year)\b|\b${POSTED}(?<which2>today|yesterday)\b`, "gi"),
    range: (g, now) => calendar(g.which?.toLowerCase() ?? g.which2!.toLowerCase(), g.unit?.toLowerCase(), now),
  },
];

const COUNTS: Record<string, number> = { a: 1, one: 1, two: 2, three: 3, four: 4, six: 6 };

function utc(year: number, month = 0, date = 1): Date {
  return new Date(Date.UTC(year, month, date));
}

/** January 1st of a year between 2000 and the clock's year (older or future years are not publication times). */
function yearStart(year: number, now: Date): Date | undefined {
  return year >= 2000 && year <= now.getUTCFullYear() + 1 ? utc(year) : undefined;
}

function monthStart(year: number, name: string, now: Date): Date | undefined {
  const start = yearStart(year, now);
  return start && utc(year, MONTHS.indexOf(name.slice(0, 3).toLowerCase()));
}

function addMonths(date: Date, months: number): Date {
  return utc(date.getUTCFullYear(), date.getUTCMonth() + months, date.getUTCDate());
}

function addYears(date: Date, years: number): Date {
  return utc(date.getUTCFullYear() + years, date.getUTCMonth(), date.getUTCDate());
}

function subtract(now: Date, count: number, unit: string): Date {
  const today = utc(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (unit.startsWith("day")) return utc(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - count);
  if (unit.startsWith("week")) return utc(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - 7 * count);
  if (unit.startsWith("month")) return addMonths(today, -count);
  return addYears(today, -count);
}

function calendar(which: string, unit: string | undefined, now: Date): Range {
  const today = utc(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (which === "today") return { since: before(today) };
  if (which === "yesterday") return { since: before(utc(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - 1)), until: day(today) };
  let start: Date;
  if (unit === "year") start = utc(today.getUTCFullYear());
  else if (unit === "month") start = utc(today.getUTCFullYear(), today.getUTCMonth());
  else start = utc(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - ((today.getUTCDay() + 6) % 7)); // Monday
  if (which === "this") return { since: before(start) };
  const previous = unit === "year" ? addYears(start, -1) : unit === "month" ? addMonths(start, -1) : utc(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() - 7);
  return { since: before(previous), until: day(start) };
}

/**
 * "since X" → X on; "from X" → within X (postings from 2014 are dated 2014; "from 2014 to 2016" is a
 * range, read above); "after X" → after X's period; "before X" → before it; "until/by X" → up to X's end.
 */
function boundFrom(word: string, start: Date, next: Date): Range {
  if (word === "since") return { since: before(start) };
  if (word === "from") return { since: before(start), until: day(next) };
  if (word === "after") return { since: before(next) };
  if (word === "before") return { until: day(start) };
  return { until: day(next) };
}

function ordered(a: Date | undefined, b: Date | undefined): Range | undefined {
  if (a === undefined || b === undefined || b <= a) return undefined;
  return { since: before(a), until: day(b) };
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The second before `date` starts: a since value that keeps postings of that very midnight. */
function before(date: Date): string {
  return new Date(date.getTime() - 1000).toISOString().slice(0, 19).replace("T", " ");
}
