import { LRUCache } from "lru-cache";
import { ALIAS, NOTIONS, OCCUPATIONS, type NotionClause } from "../knowledge/knowledge.ts";
import type { TermStats } from "../store/term-stats.ts";
import { fold, hasCjk } from "../text/fold.ts";
import { phrasesAt, phraseStarts } from "../text/phrases.ts";

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
  /** The leading words of the keys of several words (phrases.ts). */
  starts: Set<string>;
  /**
   * Postings' words and tags → their keys, kept as postings are read (postingSkills): a version's
   * postings are read again for every page that shows them. A profile's words are never kept.
   */
  postingKeys: Map<string, string>;
  /**
   * Postings' skills (title, description and tags, postingSkills) by id, kept as pages show them: a
   * version's popular postings are on many people's pages, and their descriptions need not be read again.
   */
  postings: LRUCache<string, ReadonlyMap<string, string>>;
  /** The keys of postings' title and tag skills by id (what ranks a match's pool, every posting of it each time), kept likewise. */
  titles: LRUCache<string, readonly string[]>;
}

/** Postings whose skills a vocabulary keeps (~1–2 KB each). */
const KEPT_POSTINGS = 5_000;
/** Postings whose title skills a vocabulary keeps (a few keys each, ~100–200 B). */
const KEPT_TITLES = 20_000;

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
  return { byKey, everyday, cjk: cjk.sort((a, b) => b.length - a.length), longest, starts: phraseStarts(byKey.keys()), postingKeys: new Map(), postings: new LRUCache({ max: KEPT_POSTINGS }), titles: new LRUCache({ max: KEPT_TITLES }) };
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

/** writtenSkills of a posting's text and tags, its words' keys kept with the vocabulary (postingKeys). */
export function postingSkills(text: string, vocabulary: SkillVocabulary, tags: readonly string[]): Map<string, string> {
  return new Map([...findSkills(text, vocabulary, tags, vocabulary.postingKeys)].map(([key, skill]) => [key, skill.written]));
}

/**
 * Whether `text` names a skill (by its key) in any form, an everyday word in lowercase too: what
 * decides that a posting's skill is one the person has ("compliance" in a profile matches a
 * posting's "Compliance"), while skillsIn decides what to list.
 */
export function mentionsOf(text: string, vocabulary: SkillVocabulary): (key: string) => boolean {
  return mentionsIn(text, namedWords(text), vocabulary);
}

/**
 * What a profile names, its words read once: its skills most mentioned first (each counted once a line),
 * each as it writes them (writtenSkills), and whether it mentions a skill (mentionsOf).
 */
export function profileSkills(text: string, vocabulary: SkillVocabulary): { ranked: string[]; forms: Map<string, string>; has: (key: string) => boolean } {
  const words = namedWords(text);
  const counts = new Map<string, number>();
  let at = 0;
  let first = 0;
  for (const line of text.split(/(?<=\n)/)) {
    const end = at + line.length;
    let last = first;
    while (last < words.length && words[last]!.end <= end) last++;
    const found = new Map<string, { name: string; written: string }>();
    wordSkills(text, words.slice(first, last), vocabulary, found);
    cjkSkills(line, vocabulary, found);
    for (const { name } of found.values()) counts.set(name, (counts.get(name) ?? 0) + 1);
    [at, first] = [end, last];
  }
  const whole = new Map<string, { name: string; written: string }>();
  wordSkills(text, words, vocabulary, whole);
  cjkSkills(text, vocabulary, whole);
  return {
    ranked: [...counts].sort((a, b) => b[1] - a[1]).map(([skill]) => skill),
    forms: new Map([...whole].map(([key, skill]) => [key, skill.written])),
    has: mentionsIn(text, words, vocabulary),
  };
}

/** The key two spellings of one skill share: its words aliased and folded ("Node.js", "nodejs" → "node.js"). */
export function skillKey(name: string): string {
  if (hasCjk(name)) return name.toLowerCase().replace(/\s+/g, "");
  const lower = name.toLowerCase();
  return [...lower.matchAll(WORD)].map((match) => wordKey(match[0], dotted(lower, match.index))).join(" ");
}

// --- internal ---

/** `kept` (a posting's text only): words' and tags' keys found before, and where to keep those found now. */
function findSkills(text: string, vocabulary: SkillVocabulary, tags: readonly string[], kept?: Map<string, string>): Map<string, { name: string; written: string }> {
  const found = new Map<string, { name: string; written: string }>();
  for (const tag of tags) {
    const key = keyOnce(`#${tag}`, () => skillKey(tag.toLowerCase()), kept);
    const name = vocabulary.byKey.get(key);
    if (name !== undefined) found.set(key, { name, written: tag });
  }
  wordSkills(text, namedWords(text, kept), vocabulary, found);
  cjkSkills(text, vocabulary, found);
  return found;
}

/** The skills `words` of `text` name into `found`: the longest where two overlap, a name's capitals kept. */
function wordSkills(text: string, words: NamedWord[], vocabulary: SkillVocabulary, found: Map<string, { name: string; written: string }>): void {
  const keys = words.map((word) => word.key);
  for (let i = 0; i < words.length; ) {
    let taken = 0;
    for (const { key, n } of phrasesAt(keys, i, vocabulary.byKey, vocabulary.starts, vocabulary.longest)) {
      if (n === 1 && ((vocabulary.everyday.has(key) && !words[i]!.asName) || (key.length <= SHORT_NAME && !words[i]!.capital))) continue;
      if (!found.get(key)?.written.match(/\p{Lu}/u)) found.set(key, { name: vocabulary.byKey.get(key)!, written: text.slice(words[i]!.start, words[i + n - 1]!.end) });
      taken = n;
      break;
    }
    i += Math.max(1, taken);
  }
}

/** The Chinese skills `text` holds, into `found`. */
function cjkSkills(text: string, vocabulary: SkillVocabulary, found: Map<string, { name: string; written: string }>): void {
  if (!hasCjk(text)) return;
  const lower = text.toLowerCase();
  for (const name of vocabulary.cjk) {
    const at = lower.indexOf(name);
    if (at >= 0) found.set(skillKey(name), { name, written: text.slice(at, at + name.length) });
  }
}

/** mentionsOf over the words of `text` read already. */
function mentionsIn(text: string, words: NamedWord[], vocabulary: SkillVocabulary): (key: string) => boolean {
  const keys = words.map((word) => word.key);
  const grams = new Set<string>();
  for (let i = 0; i < keys.length; i++) {
    if (keys[i]!.length > SHORT_NAME || words[i]!.capital) grams.add(keys[i]!);
    let gram = keys[i]!;
    for (let n = 2; n <= vocabulary.longest && i + n <= keys.length && vocabulary.starts.has(gram); n++) grams.add((gram = `${gram} ${keys[i + n - 1]!}`));
  }
  const compact = hasCjk(text) ? text.toLowerCase().replace(/\s+/g, "") : "";
  return (key) => grams.has(key) || (compact !== "" && hasCjk(key) && compact.includes(key));
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
interface NamedWord {
  key: string;
  asName: boolean;
  capital: boolean;
  start: number;
  end: number;
}

function namedWords(text: string, kept?: Map<string, string>): NamedWord[] {
  const matches = [...text.matchAll(WORD)];
  const titled = matches.map((match) => /^\p{Lu}\p{Ll}/u.test(match[0]));
  // Two capitalised words with only a space between are one name ("San Francisco"), not a skill.
  const joined = (a: number, b: number) => titled[a] === true && titled[b] === true && text[matches[b]!.index - 1] === " " && matches[a]!.index + matches[a]![0].length === matches[b]!.index - 1;
  return matches.map((match, i) => {
    const raw = match[0];
    const capital = /^\p{Lu}/u.test(raw);
    const allCapitals = raw.length <= 5 && raw === raw.toUpperCase() && /\p{Lu}/u.test(raw);
    const loneCapital = capital && !/(?:^|[.!?:;\n•*#>-])\s*$/.test(text.slice(Math.max(0, match.index - 3), match.index)) && !joined(i - 1, i) && !joined(i, i + 1);
    const afterDot = dotted(text, match.index);
    const start = afterDot ? match.index - 1 : match.index;
    const lower = raw.toLowerCase();
    return { key: afterDot ? wordKey(lower, true) : keyOnce(lower, () => wordKey(lower, false), kept), asName: allCapitals || loneCapital, capital, start, end: match.index + raw.length };
  });
}

/**
 * A lowercase word's key: aliased, then folded as stored terms are. A word written after a dot that
 * starts it (".NET", not "ASP.NET"'s inner one) keeps the dot: "net revenue" names no skill.
 */
function wordKey(word: string, afterDot: boolean): string {
  return afterDot ? `.${word}` : fold(ALIAS[word] ?? word);
}

/** A key kept in `kept` (up to KEYS_KEPT of them), or worked out. */
function keyOnce(name: string, keyOf: () => string, kept: Map<string, string> | undefined): string {
  let key = kept?.get(name);
  if (key === undefined) {
    key = keyOf();
    if (kept !== undefined && kept.size < KEYS_KEPT) kept.set(name, key);
  }
  return key;
}
/** Distinct words and tags of postings whose keys a vocabulary keeps (a few MB at most). */
const KEYS_KEPT = 100_000;

/** Whether the word at `index` follows a dot that starts a word (nothing but a space, or nothing, before it). */
function dotted(text: string, index: number): boolean {
  return index > 0 && text[index - 1] === "." && (index === 1 || /[\s(,/]/.test(text[index - 2]!));
}

/** A word as fold.ts's foldedWords cuts it (c++, c#, node.js whole), read here with its position and case. */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}+#]*(?:\.[\p{L}\p{N}]+)*[+#]*/gu;
