import { queryTokens } from "../text/query-tokens.ts";
import type { Finding } from "./finding.ts";

/*
 * Conditions whose clause says they are not requirements.
 * A wish ranks, it does not filter: "ideally remote", "preferably in Berlin", "open to contract
 * work", "senior a plus", "remote preferred". Such a condition is not applied; its words stay among
 * the words searched, so postings that say it rank higher, and a hint says so.
 * A condition ruled out ("no contracts or part-time gigs", "not interested in internships") is not
 * applied either: no filter says "not this", and applying it would give the opposite.
 * A wish or a negation reaches from its word to the end of the clause (up to a comma, ".", ";",
 * "!", "?" or "but"); a wish said after ("… preferred", "… a plus", "… is a bonus") reaches back to
 * the clause's start. A condition that starts inside that reach is qualified by it.
 */

/** The findings that are wishes rather than requirements. */
export function preferences(text: string, findings: Finding[]): Set<Finding> {
  const scopes: Array<[number, number]> = [];
  for (const match of text.matchAll(BEFORE)) scopes.push([match.index, clauseEnd(text, match.index + match[0].length)]);
  for (const match of text.matchAll(AFTER)) scopes.push([clauseStart(text, match.index), match.index + match[0].length]);
  return new Set(findings.filter((f) => scopes.some(([start, end]) => f.start >= start && f.start < end)));
}

/** Whether a text says a wish in the words `preferences` reads ("ideally", "open to", "… preferred"). */
export function statesPreference(text: string): boolean {
  return ANY_WISH.test(text);
}

/** The findings the query rules out; a finding that holds the negation itself ("not remote") is its own condition. */
export function negations(text: string, findings: Finding[]): Set<Finding> {
  const scopes: Array<[number, number]> = [];
  for (const match of text.matchAll(NEGATION)) scopes.push([match.index + match[0].length, clauseEnd(text, match.index + match[0].length)]);
  return new Set(findings.filter((f) => scopes.some(([start, end]) => f.start >= start && f.start < end)));
}

/**
 * A label before a colon that opens a request ("Agent: list …", "Task: find …", "User: I want …"): it
 * names who is addressed or what the message is, not the job, so it is not searched. One or two words,
 * and the words after the colon open with a request or a pronoun (a stop or filler word): in
 * "Nurse: nights in Leeds" the word before the colon is the job. Undefined when the query has none.
 */
export function addressLabel(text: string): Finding | undefined {
  const match = LABEL.exec(text);
  if (!match) return undefined;
  const next = queryTokens(text.slice(match[0].length))[0];
  if (next?.kind !== "stop" && next?.kind !== "filler") return undefined;
  return { start: 0, end: match[0].length, phrase: match[1]!, filters: {}, confident: true };
}

// --- internal ---

/** One or two words and a colon at the very start. */
const LABEL = /^\s*(\p{L}+(?:\s\p{L}+)?)\s*[:：]\s*/u;

/** Words that rule out what follows them in the clause. */
const NEGATION = /\b(?:no|not|non|never|without|except|excluding|avoid|(?:do|does|did)\s*n[o']?t\s+want)\b/gi;

/** Words that make what follows them a wish. */
const BEFORE = /\b(?:ideally|preferably|prefer(?:s|ring)?|(?:would|i'd|i’d|we'd|we’d)\s+rather|if\s+possible|nice\s+to\s+have|bonus\s+(?:points\s+)?if|open\s+(?:to|for)|(?:would|could)\s+consider|lean(?:ing)?\s+towards?|happy\s+with|ok\s+with|fine\s+with|optionally|not\s+required|doesn'?t\s+have\s+to\s+be|does\s+not\s+have\s+to\s+be)\b/gi;
/** Words that make what precedes them (in the clause) a wish. */
const AFTER = /\b(?:preferred|(?:is\s+|would\s+be\s+)?a\s+(?:plus|bonus)|would\s+be\s+(?:nice|great|ideal|good|perfect)|appeals|(?:is\s+)?my\s+first\s+choice|(?:is\s+)?nice\s+to\s+have|if\s+possible|optional|welcome)\b/gi;

/** BEFORE or AFTER anywhere, without the global flag's state. */
const ANY_WISH = new RegExp(`${BEFORE.source}|${AFTER.source}`, "i");

/** Where a clause ends: a comma, ".", ";", "!", "?" or "but". */
const BOUNDARY = String.raw`[.;!?,]|\bbut\b`;
/**
 * A comma inside a list, which does not end the clause: the next item (three words at most) is followed by
 * another comma or by "or"/"and" ("open to contract, part-time or temp work", "no agencies, recruiters or spam").
 */
const LIST_COMMA = /^,\s*(?:[\p{L}\p{N}'’-]+\s+){0,2}[\p{L}\p{N}'’-]+\s*(?:,|\b(?:or|and)\b)/iu;

function clauseEnd(text: string, from: number): number {
  const next = new RegExp(BOUNDARY, "g");
  next.lastIndex = from;
  for (let match = next.exec(text); match !== null; match = next.exec(text)) {
    if (match[0] !== "," || !LIST_COMMA.test(text.slice(match.index))) return match.index;
  }
  return text.length;
}

function clauseStart(text: string, before: number): number {
  let start = 0;
  for (const match of text.slice(0, before).matchAll(new RegExp(BOUNDARY, "g"))) start = match.index + match[0].length;
  return start;
}
