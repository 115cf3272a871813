import { ALIAS, NOTIONS, OCCUPATIONS, type NotionClause } from "../knowledge/knowledge.ts";
import type { TermStats } from "../store/term-stats.ts";
import { fold, hasCjk } from "../text/fold.ts";

/*
 * Skills, as matching reads them in a profile and in a posting: the postings' own tags (what the data
 * calls a skill) and the knowledge base's skills, each found as whole words (Chinese ones as written).
 * A one-word skill that is also an everyday word ("rest", "chef"), or that no posting tags
 * ("perception"), counts in running text only when written as a name (a lone capital inside a sentence,
 * not a word of a longer name such as "San Francisco", or all capitals), and one of two letters or fewer
 * ("go", "r") only with a capital; a posting's tags always count.
 */

/** The skills matching knows, keyed by their folded words. */
export interface SkillVocabulary {
  /** Folded words joined by spaces (Chinese skills: lowercase as written) → the skill as shown. */
  byKey: Map<string, string>;
  /** One-word keys that are everyday words too, or no tag: in running text only when written as a name. */
  everyday: Set<string>;
  /** Chinese skills, looked for as substrings. */
  cjk: string[];
  longest: number;
}

/** A tag is a skill of the data when at least this many postings carry it. */
const MIN_TAG_POSTINGS = 3;
/** A one-word skill used in this many times more postings' text than as a tag is an everyday word too. */
const EVERYDAY_RATIO = 4;
/** Longest skill looked up, in words. */
const MAX_SKILL_WORDS = 4;

/**
 * The vocabulary of a table: its tags used by at least MIN_TAG_POSTINGS postings (`tags`, most used
 * first) and the knowledge base's skills; tags of the filters' notions (remote, part-time, internship)
 * are conditions, not skills. `stats` tells everyday words (none without it).
 */
export function skillVocabulary(tags: ReadonlyArray<{ value: string; count: number }>, stats: TermStats | undefined): SkillVocabulary {
  const byKey = new Map<string, string>();
  const tagged = new Map<string, number>();
  const cjk: string[] = [];
  const add = (skill: string, count: number) => {
    const name = skill.trim().toLowerCase();
    if (name === "" || NOT_SKILLS.test(name)) return;
    const key = skillKey(name);
    if (key === "") return;
    if (count > 0) tagged.set(key, (tagged.get(key) ?? 0) + count);
    if (byKey.has(key)) return;
    byKey.set(key, name);
    if (hasCjk(name)) cjk.push(name);
  };
  for (const { value, count } of tags) if (count >= MIN_TAG_POSTINGS) add(value, count);
  for (const occupation of OCCUPATIONS) for (const skill of occupation.skills) add(skill, 0);
  // A tag of several skills ("react/vue") is those skills, each found on its own.
  for (const [key, name] of byKey) {
    const parts = name.split("/").map(skillKey);
    if (parts.length > 1 && parts.every((part) => part !== key && byKey.has(part))) byKey.delete(key);
  }
  const everyday = new Set<string>();
  for (const key of byKey.keys()) {
    if (key.includes(" ") || hasCjk(key)) continue;
    const asTag = tagged.get(key) ?? 0;
    if (asTag === 0 || (stats?.df[key] ?? 0) > EVERYDAY_RATIO * asTag) everyday.add(key);
  }
  const longest = Math.min(MAX_SKILL_WORDS, Math.max(1, ...[...byKey.keys()].map((key) => key.split(" ").length)));
  return { byKey, everyday, cjk: cjk.sort((a, b) => b.length - a.length), longest };
}

/**
 * The skills `text` names, as the vocabulary shows them, in the order they first occur; the longest
 * skill wins where two overlap ("react native" over "react"). `tags` (a posting's) count whatever they are.
 */
export function skillsIn(text: string, vocabulary: SkillVocabulary, tags: readonly string[] = []): string[] {
  return [...findSkills(text, vocabulary, tags).values()].map((skill) => skill.name);
}

/**
 * The same skills by key, each as `text` writes it where it does ("Distributed Systems", "C#", "API"), else
 * as its tag: what a person reading the text recognises.
 */
export function writtenSkills(text: string, vocabulary: SkillVocabulary, tags: readonly string[] = []): Map<string, string> {
  return new Map([...findSkills(text, vocabulary, tags)].map(([key, skill]) => [key, skill.written]));
}

/**
 * Whether `text` names a skill (by its key) in any form, an everyday word in lowercase too: what
 * decides that a posting's skill is one the person has ("compliance" in a profile matches a
 * posting's "Compliance"), while skillsIn decides what to list.
 */
export function mentionsOf(text: string, vocabulary: SkillVocabulary): (key: string) => boolean {
  const words = namedWords(text);
  const keys = words.map((word) => word.key);
  const grams = new Set<string>();
  for (let i = 0; i < keys.length; i++) {
    if (keys[i]!.length > SHORT_NAME || words[i]!.capital) grams.add(keys[i]!);
    for (let n = 2; n <= vocabulary.longest && i + n <= keys.length; n++) grams.add(keys.slice(i, i + n).join(" "));
  }
  const compact = hasCjk(text) ? text.toLowerCase().replace(/\s+/g, "") : "";
  return (key) => grams.has(key) || (compact !== "" && hasCjk(key) && compact.includes(key));
}

/** The key two spellings of one skill share: its words aliased and folded ("Node.js", "nodejs" → "node.js"). */
export function skillKey(name: string): string {
  if (hasCjk(name)) return name.toLowerCase().replace(/\s+/g, "");
  const lower = name.toLowerCase();
  return [...lower.matchAll(WORD)].map((match) => wordKey(match[0], dotted(lower, match.index))).join(" ");
}

// --- internal ---

function findSkills(text: string, vocabulary: SkillVocabulary, tags: readonly string[]): Map<string, { name: string; written: string }> {
  const found = new Map<string, { name: string; written: string }>();
  for (const tag of tags) {
    const key = skillKey(tag.toLowerCase());
    const name = vocabulary.byKey.get(key);
    if (name !== undefined) found.set(key, { name, written: tag });
  }
  const words = namedWords(text);
  for (let i = 0; i < words.length; ) {
    let taken = 0;
    for (let n = Math.min(vocabulary.longest, words.length - i); n >= 1 && taken === 0; n--) {
      const key = words.slice(i, i + n).map((w) => w.key).join(" ");
      const name = vocabulary.byKey.get(key);
      if (name === undefined) continue;
      if (n === 1 && ((vocabulary.everyday.has(key) && !words[i]!.asName) || (key.length <= SHORT_NAME && !words[i]!.capital))) continue;
      if (!found.get(key)?.written.match(/\p{Lu}/u)) found.set(key, { name, written: text.slice(words[i]!.start, words[i + n - 1]!.end) });
      taken = n;
    }
    i += Math.max(1, taken);
  }
  if (hasCjk(text)) {
    const lower = text.toLowerCase();
    for (const name of vocabulary.cjk) {
      const at = lower.indexOf(name);
      if (at >= 0) found.set(skillKey(name), { name, written: text.slice(at, at + name.length) });
    }
  }
  return found;
}

/** The conditions' tags and title words (remote, part-time, senior, internship): what filters read, not skills. */
const NOT_SKILLS = notionPattern();

function notionPattern(): RegExp {
  const clauses: NotionClause[] = Object.values(NOTIONS).flatMap((notion) => (notion.kind === "boolean" ? notion.any : Object.values(notion.values).flat()));
  const parts = clauses.flatMap((clause) => ("tag" in clause ? [escape(clause.tag)] : "title" in clause ? [clause.title] : []));
  return new RegExp(`^(?:${parts.join("|")})$`, "i");
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A skill of this many letters or fewer ("go", "r", "ui", "c#") is named only when written with a capital
 * ("Go", "R", "UI"), wherever it stands; in lowercase it is a word ("go to the office"), or a tag.
 */
const SHORT_NAME = 2;

/**
 * Each word of `text` with its key, its place, whether it starts with a capital, and whether it is written
 * as a name (a capital inside a sentence, or all capitals).
 */
function namedWords(text: string): Array<{ key: string; asName: boolean; capital: boolean; start: number; end: number }> {
  const matches = [...text.matchAll(WORD)];
  const capital = (i: number) => matches[i] !== undefined && /^\p{Lu}\p{Ll}/u.test(matches[i]![0]);
  // Two capitalised words with only a space between are one name ("San Francisco"), not a skill.
  const joined = (a: number, b: number) => capital(a) && capital(b) && /^ $/.test(text.slice(matches[a]!.index + matches[a]![0].length, matches[b]!.index));
  return matches.map((match, i) => {
    const raw = match[0];
    const sentenceStart = /(?:^|[.!?:;\n•*#>-])\s*$/.test(text.slice(Math.max(0, match.index - 3), match.index));
    const allCapitals = raw.length <= 5 && raw === raw.toUpperCase() && /\p{Lu}/u.test(raw);
    const loneCapital = /^\p{Lu}/u.test(raw) && !sentenceStart && !joined(i - 1, i) && !joined(i, i + 1);
    const afterDot = dotted(text, match.index);
    const start = afterDot ? match.index - 1 : match.index;
    return { key: wordKey(raw.toLowerCase(), afterDot), asName: allCapitals || loneCapital, capital: /^\p{Lu}/u.test(raw), start, end: match.index + raw.length };
  });
}

/**
 * A lowercase word's key: aliased, then folded as stored terms are. A word written after a dot that
 * starts it (".NET", not "ASP.NET"'s inner one) keeps the dot: "net revenue" names no skill.
 */
function wordKey(word: string, afterDot: boolean): string {
  return afterDot ? `.${word}` : fold(ALIAS[word] ?? word);
}

/** Whether the word at `index` follows a dot that starts a word (nothing but a space, or nothing, before it). */
function dotted(text: string, index: number): boolean {
  return index > 0 && text[index - 1] === "." && (index === 1 || /[\s(,/]/.test(text[index - 2]!));
}

/** A word as fold.ts's foldedWords cuts it (c++, c#, node.js whole), read here with its position and case. */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}+#]*(?:\.[\p{L}\p{N}]+)*[+#]*/gu;
