import type { Finding } from "./finding.ts";

/*
 * Pay stated in words: a bound ("over 150k", "at least $120,000", "under £40k", "£50k+") or a range
 * ("100-120k", "between 90k and 110k") becomes salary_min and/or salary_max with salary_currency, as a
 * POST body gives them. An amount counts as pay only when it says so: a currency sign or code, a "k",
 * or a pay word beside it ("salary 90000"), so "over 5 years" and "2016" stay what they are. Amounts
 * per hour or per month are made yearly (2,080 hours, 12 months), as the salary filters compare.
 * Without a currency the amount is taken as US dollars, and the echo shows it.
 */

export function findSalary(text: string): Finding[] {
  const found: Finding[] = [];
  for (const match of text.matchAll(PATTERN)) {
    const g = match.groups!;
    const currency = currencyOf(g.cur1 ?? g.cur2 ?? g.cur3);
    const per = g.per ?? g.per2;
    const high = g.high === undefined ? undefined : amount(g.high, g.k2, per);
    // "100-120k": the first number borrows the second's "k" when it has none and is under a thousand.
    const low = amount(g.low!, g.k1 ?? (g.k2 !== undefined && Number(g.low!.replaceAll(",", "")) < 1000 ? g.k2 : undefined), per);
    const stated = currency !== undefined || (g.k1 ?? g.k2) !== undefined || g.pay !== undefined || g.pay2 !== undefined;
    if (!stated || low < MIN_YEARLY || (high !== undefined && high < low)) continue;
    const filters: Record<string, unknown> = { salary_currency: currency ?? "USD" };
    if (high !== undefined) Object.assign(filters, { salary_min: low, salary_max: high });
    else if (g.below !== undefined) filters.salary_max = low;
    else filters.salary_min = low;
    found.push({ start: match.index, end: match.index + match[0].length, phrase: match[0].trim(), filters, confident: true });
  }
  return found;
}

// --- internal ---

/** A yearly pay under this is no salary bound ("over 5", "1-2 years"). */
const MIN_YEARLY = 1_000;

const CODE = String.raw`rmb|cny|usd|gbp|eur|cad|aud|chf|sek|nok|dkk|sgd`;
const SIGN = String.raw`us\$|c\$|a\$|[$£€¥]|${CODE}`;
const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
const PER = String.raw`(?:\s*(?:/|per\s|an?\s)\s*(?<per>hour|hr|h|month|mo|year|yr|annum)(?![\p{L}])|\s+(?<per2>hourly|monthly|annually|yearly))?`;
const PAY = String.raw`(?:salary|salaries|pay|paying|pays|compensation|comp|wage|wages|earn|earning|base|ote|tc)`;
const BELOW = String.raw`under|below|less\s+than|at\s+most|up\s+to|max(?:imum)?|no\s+more\s+than|<|≤`;
const ABOVE = String.raw`over|above|more\s+than|at\s+least|min(?:imum)?|from|starting\s+at|no\s+less\s+than|>|≥`;

/** [pay word] [bound] [currency] low[k] [(- | to | and) [currency] high[k]] [currency code] [+] [per period] [pay word] */
const PATTERN = new RegExp(
  String.raw`(?<![\p{L}\p{N}$£€¥])(?:(?<pay>${PAY})\s*(?:of\s+|is\s+|:\s*)?)?(?:(?:(?<below>${BELOW})|${ABOVE}|between)\s*)?` +
    String.raw`(?<cur1>${SIGN})?\s?(?<low>${NUMBER})\s?(?<k1>k|m|thousand)?(?![\p{L}\p{N}])` +
    String.raw`(?:\s*(?:-|–|to|and)\s*(?<cur2>${SIGN})?\s?(?<high>${NUMBER})\s?(?<k2>k|m|thousand)?(?![\p{L}\p{N}]))?` +
    String.raw`(?:\s?(?<cur3>${CODE}))?\+?${PER}(?:\s+(?<pay2>${PAY}))?(?![\p{L}\p{N}])`,
  "giu",
);

function amount(number: string, unit: string | undefined, per: string | undefined): number {
  let value = Number(number.replaceAll(",", ""));
  const scale = unit?.toLowerCase();
  if (scale === "k" || scale === "thousand") value *= 1_000;
  if (scale === "m") value *= 1_000_000;
  const period = per?.toLowerCase();
  if (period === "hour" || period === "hr" || period === "h" || period === "hourly") value *= 2_080;
  if (period === "month" || period === "mo" || period === "monthly") value *= 12;
  return Math.round(value);
}

function currencyOf(sign: string | undefined): string | undefined {
  if (sign === undefined) return undefined;
  const s = sign.toLowerCase();
  return CURRENCY[s] ?? s.toUpperCase();
}

const CURRENCY: Record<string, string> = { $: "USD", "us$": "USD", "c$": "CAD", "a$": "AUD", "£": "GBP", "€": "EUR", "¥": "CNY", rmb: "CNY" };
