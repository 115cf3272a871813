/**
 * The skill lists of `match` results checked from raw text (issue 25, item 4), never through the service:
 * a matched skill must occur in both the profile and the posting (its text or tags), a missing skill in the
 * posting but not in the profile (precision, goal ≥ 0.95 each); of the posting's skill tags, those the profile
 * mentions should be among the matched and the others among the missing (recall, goal ≥ 0.80 each).
 */
import type { EvalRecord } from "../dataset.ts";
import type { MatchedJob } from "./modes.ts";

export const PRECISION_GOAL = 0.95;
export const RECALL_GOAL = 0.8;
/** Tags that flag a posting rather than name a skill (shared/data/README.md: "plus flags such as remote"). */
const FLAG_TAGS = new Set(["remote", "visa-sponsorship", "internship"]);

export interface SkillCheck {
  /** Results that carried both lists. */
  results: number;
  matchedPrecision: Ratio;
  missingPrecision: Ratio;
  matchedRecall: Ratio;
  missingRecall: Ratio;
  /** A few wrong entries, to show what fails ("matched Go: not in the profile"). */
  examples: string[];
}

export interface Ratio {
  hits: number;
  of: number;
}

/** Checks the lists of every result that has them; `records` by job_url gives the posting's full text. */
export function checkSkills(pages: Array<{ text: string; page: MatchedJob[] }>, records: Map<string, EvalRecord>): SkillCheck {
  const check: SkillCheck = { results: 0, matchedPrecision: ratio(), missingPrecision: ratio(), matchedRecall: ratio(), missingRecall: ratio(), examples: [] };
  for (const { text, page } of pages) {
    for (const result of page) {
      const matched = result.match?.matched_skills;
      const missing = result.match?.missing_skills;
      if (!Array.isArray(matched) || !Array.isArray(missing)) continue;
      check.results++;
      const posting = records.get(result.job_url) ?? result;
      const tags = posting.job_tags ?? [];
      const postingText = `${posting.job_title ?? ""}\n${posting.job_description ?? ""}`;
      const inPosting = (skill: string) => tags.some((tag) => same(tag, skill)) || mentions(postingText, skill);
      const note = (message: string) => check.examples.length < 12 && check.examples.push(`${posting.job_title ?? result.job_url}: ${message}`);
      for (const skill of matched) {
        const ok = mentions(text, skill) && inPosting(skill);
        count(check.matchedPrecision, ok);
        if (!ok) note(`matched "${skill}" is not in both the profile and the posting`);
      }
      for (const skill of missing) {
        const ok = inPosting(skill) && !mentions(text, skill);
        count(check.missingPrecision, ok);
        if (!ok) note(`missing "${skill}" is ${mentions(text, skill) ? "in the profile" : "not in the posting"}`);
      }
      for (const tag of tags.filter((tag) => !FLAG_TAGS.has(tag.toLowerCase()))) {
        if (mentions(text, tag)) count(check.matchedRecall, matched.some((skill) => same(skill, tag)));
        else count(check.missingRecall, missing.some((skill) => same(skill, tag)));
      }
    }
  }
  return check;
}

/**
 * Whether `text` names `skill`: a whole-word match, case-insensitive, where "C" does not match "C++" nor
 * "Java" "JavaScript"; names of two letters or fewer ("Go", "R", "UI") must match in case, so that the verb "go"
 * is not the language; a name in a CJK script is found anywhere (no spaces between words).
 */
export function mentions(text: string, skill: string): boolean {
  const name = skill.trim();
  if (name === "") return false;
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(name)) return text.toLowerCase().includes(name.toLowerCase());
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}+#])`, name.length <= 2 ? "u" : "iu").test(text);
}

export function share(value: Ratio): number {
  return value.of === 0 ? Number.NaN : value.hits / value.of;
}

// --- internal ---

function ratio(): Ratio {
  return { hits: 0, of: 0 };
}

function count(target: Ratio, hit: boolean): void {
  target.of++;
  if (hit) target.hits++;
}

function same(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
