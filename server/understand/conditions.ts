import type { Finding } from "./finding.ts";

/*
 * Conditions of the job stated in words: remote or on-site, visa sponsorship, seniority and
 * employment type, or no place at all ("worldwide", "anywhere": no filter, the words leave the search;
 * "location independent", "work from anywhere" are remote). Each reads as the filter of the same name (remote, tags, seniority,
 * employment_type); search widens an inferred one to every field that carries the notion (declared
 * in the knowledge base's server/knowledge/notions.json, applied by store/filter.ts), since most
 * postings leave seniority and employment type unset.
 * A word that is part of a job's name ("contract manager", "remote sensing", "senior care aide")
 * is not a condition.
 */

export function findConditions(text: string): Finding[] {
  const found: Finding[] = [];
  for (const rule of RULES) {
    for (const match of text.matchAll(rule.pattern)) {
      found.push({ start: match.index, end: match.index + match[0].length, phrase: match[0].trim(), filters: rule.filters, confident: true });
    }
  }
  return found;
}

// --- internal ---

/** Words after which "contract", "temporary", "senior" or "remote" name the job or its subject, not a condition. */
const JOB_NOUN = String.raw`(?!\s+(?:manager|management|administrator|administration|attorney|lawyer|specialist|analyst|negotiator|officer|law|sensing|monitoring|control|pilot|support\s+technician|care|living|citizens?|services?)\b)`;
/** What may follow a seniority word: a space, punctuation, or the end. */
const AFTER_WORD = String.raw`[\s,.;:!?)]|$`;
const NOT_AFTER = String.raw`(?<!\bsmart\s)(?<!\bgovernment\s)(?<!\bsocial\s)`;

const RULES: Array<{ pattern: RegExp; filters: Record<string, unknown> }> = [
  { pattern: new RegExp(String.raw`\b(?:fully\s+|100%\s+)?(?:remote(?:ly)?(?:[- ](?:first|friendly|only|ok))?|work(?:ing)?\s+from\s+(?:home|anywhere)|wfh|telecommut\w*|home[- ]based|location[- ](?:independent|agnostic)|digital\s+nomads?)\b${JOB_NOUN}`, "gi"), filters: { remote: true } },
  // No place at all: the words leave the search and no place filter is read ("anywhere in Europe" is a place: in-query.ts).
  { pattern: /\b(?:anywhere(?:\s+in\s+the\s+world)?|worldwide|world[- ]wide|globally|any\s+location|all\s+locations)\b/gi, filters: {} },
  { pattern: /\b(?:on[- ]?site|in[- ]office|in[- ]person|not\s+remote|no\s+remote)\b/gi, filters: { remote: false } },
  { pattern: /\b(?:(?:with\s+|offers?\s+|offering\s+)?visa\s+sponsor(?:ship|ed|ing)?|sponsors?\s+(?:a\s+|work\s+)?visas?|visa[- ]sponsorship|h-?1b(?:\s+(?:visa|sponsorship|transfer))?)\b/gi, filters: { tags: ["visa-sponsorship"] } },
  { pattern: new RegExp(String.raw`\b(?:senior|sr\.?)(?:[- ]level)?(?=${AFTER_WORD})${JOB_NOUN}`, "gi"), filters: { seniority: ["senior"] } },
  { pattern: new RegExp(String.raw`\b(?:junior|jr\.?|entry[- ]level|new\s+grads?|graduate)(?:[- ]level)?(?=${AFTER_WORD})(?!\s+(?:school|student|research|teaching|assistant)\b)`, "gi"), filters: { seniority: ["junior"] } },
  { pattern: /\b(?:mid[- ]level|mid[- ]senior|intermediate)\b/gi, filters: { seniority: ["mid"] } },
  { pattern: new RegExp(String.raw`\b(?:(?:tech(?:nical)?\s+)?lead|principal|staff(?=\s+(?:software|engineers?|developers?|data|scientists?|designers?|architects?|sre|ml|machine|backend|frontend|product)\b))(?:[- ]level)?(?=${AFTER_WORD})(?!\s+(?:generation|gen|generator|qualification|poisoning|paint|time|investigator)\b)${JOB_NOUN}`, "gi"), filters: { seniority: ["lead"] } },
  { pattern: /\b(?:internships?|interns?|co-?op)\b/gi, filters: { employment_type: ["INTERN"] } },
  // Chinese: 远程 (remote), 实习 (an internship), 兼职 / 全职 (part-time, full-time).
  { pattern: /(?:全|纯)?远程(?:办公|工作)?|居家办公|在家办公/g, filters: { remote: true } },
  { pattern: /实习(?:生|岗位?)?/g, filters: { employment_type: ["INTERN"] } },
  { pattern: /兼职/g, filters: { employment_type: ["PART_TIME"] } },
  { pattern: /全职/g, filters: { employment_type: ["FULL_TIME"] } },
  { pattern: /\b(?:part[- ]time|part[- ]timer?s?)\b/gi, filters: { employment_type: ["PART_TIME"] } },
  { pattern: /\b(?:full[- ]time)\b/gi, filters: { employment_type: ["FULL_TIME"] } },
  { pattern: new RegExp(String.raw`${NOT_AFTER}\b(?:contract(?:or|ors)?|freelancer?s?|freelancing|contract[- ]to[- ]hire|1099)\b${JOB_NOUN}`, "gi"), filters: { employment_type: ["CONTRACTOR"] } },
  { pattern: new RegExp(String.raw`\b(?:temporary|temp|seasonal)\b${JOB_NOUN}`, "gi"), filters: { employment_type: ["TEMPORARY"] } },
];
