import { contentKeys } from "../text/query-tokens.ts";

/*
 * What a profile states of the person beside the jobs and places profile.ts reads: the level a title or
 * a wish says, the years of experience, the spoken languages.
 */

const SENIORITY_WORDS: Array<[RegExp, string]> = [
  [/\b(?:intern|internship|student)\b|实习/i, "intern"],
  [/\b(?:junior|jr\.?|graduate|entry[- ]level|new grad)\b|初级|应届/i, "junior"],
  [/\b(?:lead|principal|staff|head of|director|architect)\b|负责人|总监|架构师|专家/i, "lead"],
  [/\b(?:senior|sr\.?)\b|高级|资深/i, "senior"],
  [/\b(?:mid[- ]level|intermediate)\b|中级/i, "mid"],
];

/** Whether a title is a level and nothing else: one word a level is said with ("intern", "student"). */
export function levelOnly(title: string): boolean {
  return contentKeys(title, true).length <= 1 && seniorityOfTitle(title) !== null;
}

export function seniorityOfTitle(line: string): string | null {
  return SENIORITY_WORDS.find(([pattern]) => pattern.test(line))?.[1] ?? null;
}

/** Seniority by years of experience: a common reading of job ladders. */
export function seniorityOfYears(years: number | null): string | null {
  if (years === null) return null;
  if (years < 2) return "junior";
  if (years < 5) return "mid";
  if (years < 12) return "senior";
  return "lead";
}

const ENGLISH_NUMBERS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"];
/** "Eleven years", "six+ years": years written as a word. */
const NUMBER_WORD_YEARS = new RegExp(`\\b(${ENGLISH_NUMBERS.join("|")})\\s*\\+?\\s*(?:years?|yrs?)\\b(?!\\s+old)`, "gi");
const CHINESE_NUMBERS: Record<string, number> = { 一: 1, 两: 2, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10 };

/** The largest number of years of experience the text states; a date range (2015–2020) is not one. */
export function yearsOf(text: string): number | null {
  let best: number | null = null;
  const take = (n: number) => {
    if (n > 0 && n <= 50) best = Math.max(best ?? 0, n);
  };
  for (const m of text.matchAll(/\b(\d{1,2})(?:\.\d)?\s*\+?\s*(?:years?|yrs?)\b(?!\s+old)/gi)) take(Number(m[1]));
  for (const m of text.matchAll(NUMBER_WORD_YEARS)) take(ENGLISH_NUMBERS.indexOf(m[1]!.toLowerCase()) + 1);
  for (const m of text.matchAll(/(\d{1,2}|[一两二三四五六七八九十])\s*年(?:以上)?(?:的)?(?:\S{0,6})?(?:经验|工作)/g)) {
    take(/\d/.test(m[1]!) ? Number(m[1]) : CHINESE_NUMBERS[m[1]!]!);
  }
  return best;
}

/** The items of a "Languages:" line, without their levels ("German (fluent)" → "German"). */
export function languagesOf(lines: string[]): string[] {
  const line = lines.find((l) => /^(?:languages?|spoken languages?|语言(?:能力)?)\s*[:：]/i.test(l));
  if (line === undefined) return [];
  return line
    .replace(/^[^:：]*[:：]/, "")
    .split(/[,;，、|/]/)
    .map((item) => item.replace(/\(.*?\)|（.*?）|[-–—].*$|[.。]+$/g, "").trim())
    .filter((item) => item !== "" && item.length <= 30);
}
