import { CJK_CLASS as CJK, fold, hasCjk } from "./fold.ts";
import { ALIAS, COMPOUNDS, FILLER_WORDS, GENERIC, GO_AFTER, GO_BEFORE, IT_JOB_WORDS, STOP_WORDS } from "../knowledge/knowledge.ts";

/**
 * Query analysis tokens, shared by the occupation index and query understanding: a query word
 * matches a knowledge-base word only because both went through exactly these steps. Words are
 * folded by text.ts's `fold`, the one fold of the project (stored terms use it too).
 */

export type TokenKind = "content" | "filler" | "stop" | "cjk";

export interface Token {
  /** The matching key: aliased, compound-joined and suffix-folded ("iPhones" → "iphone", "front end" → "frontend"). */
  key: string;
  /** The word as written, lowercased; a joined compound as one word ("front-end" → "frontend"). */
  words: string[];
  kind: TokenKind;
  /** Which whitespace-separated piece of the text the token came from ("UI设计师" is one piece, two tokens). */
  chunk: number;
}

/** Splits text into tokens; keeps c++, c#, .net and node.js whole, and a run of Chinese text as one token. */
export function queryTokens(text: string): Token[] {
  const tokens: Token[] = [];
  const clean = ASCII.test(text) ? text : text.normalize("NFKC").replaceAll("’", "'");
  let end = 0;
  let chunk = 0;
  for (const match of clean.matchAll(TOKEN)) {
    const raw = match[0];
    if (/\s/.test(clean.slice(end, match.index))) chunk++;
    end = match.index + raw.length;
    if (hasCjk(raw)) tokens.push({ key: raw, words: [raw], kind: "cjk", chunk });
    // Upper-case "IT" is information technology, not the pronoun; "Go" capitalised inside a sentence is the language.
    else if (raw === "IT") tokens.push({ key: "infotech", words: ["it"], kind: "content", chunk });
    else if (raw === "Go" && !SENTENCE_START.test(clean.slice(0, match.index))) tokens.push({ key: "golang", words: ["go"], kind: "content", chunk });
    else for (const word of splitWord(stripMarks(raw.toLowerCase()))) tokens.push(wordToken(word, chunk));
  }
  return joinCompounds(tokens);
}

/** The keys of a text's content words, in order (fillers too when `keepFillers`, as in a title like "Help Desk"). */
export function contentKeys(text: string, keepFillers = false): string[] {
  return queryTokens(text)
    .filter((t) => t.kind === "content" || (keepFillers && t.kind === "filler"))
    .map((t) => t.key);
}

/**
 * Content words and Chinese runs, plus filler words that form a title pair with a neighbour
 * ("help" in "help desk technician", "people" in "people operations").
 */
export function keptTokens(tokens: Token[], titlePairs: Set<string>): Token[] {
  return tokens.filter((t, i) => {
    if (t.kind === "content" || t.kind === "cjk") return true;
    if (t.kind !== "filler") return false;
    const before = tokens[i - 1];
    const after = tokens[i + 1];
    return (
      (before !== undefined && titlePairs.has(`${before.key} ${t.key}`)) ||
      (after !== undefined && titlePairs.has(`${t.key} ${after.key}`))
    );
  });
}

/**
 * The text without the Chinese words every Chinese posting has ("开发", "工程师", "高级": the knowledge
 * base's GENERIC), each replaced by a space: what is left says which job.
 */
export function withoutGenericCjk(text: string): string {
  let out = text;
  for (const word of GENERIC) out = out.replaceAll(word, " ");
  return out;
}

/** Lowercase, NFKC, no whitespace: the form Chinese titles are matched in, by substring. */
export function compactText(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, "");
}

// --- internal ---

// Chinese runs; ".net"; words with inner dots or apostrophes and a trailing + or # (c++, c#, node.js).
const TOKEN = new RegExp(
  String.raw`[${CJK}]+|\.net(?![\p{L}\p{N}])|[[\p{L}\p{N}]--[${CJK}]]+(?:['.][[\p{L}\p{N}]--[${CJK}]]+)*[+#]*`,
  "giv",
);
const ASCII = /^[\x00-\x7f]*$/;
const DOTTED = /\.(?:js|net|io)$/;

const STOP = new Set(STOP_WORDS);
/** Words of job-search talk that say nothing about the job ("looking for someone who…", "I want a job as…"). */
const FILLER = new Set(FILLER_WORDS);
function wordToken(word: string, chunk: number): Token {
  const known = KNOWLEDGE_TOKENS.get(word);
  if (known !== undefined) return { key: known.key, words: [word], kind: known.kind, chunk };
  return { key: fold(word), words: [word], kind: "content", chunk };
}

/**
 * The tokens of the words the knowledge base names (aliases, stop and filler words), made once. Other
 * words' are made each time (a fold, ~0.1 µs): no word of a query or a profile is kept past its request.
 */
const KNOWLEDGE_TOKENS = new Map<string, { key: string; kind: TokenKind }>(
  [...new Set([...Object.keys(ALIAS), ...STOP, ...FILLER])].map((word) => [
    word,
    { key: fold(ALIAS[word] ?? word), kind: STOP.has(word) ? "stop" : FILLER.has(word) ? "filler" : "content" },
  ]),
);

/** "node.js" stays whole; other dotted words ("u.s", "3.5") and possessives come apart. */
function splitWord(word: string): string[] {
  const bare = word.replace(/'s$/, "").replaceAll("'", "");
  if (!bare.includes(".") || bare === ".net" || (DOTTED.test(bare) && !bare.startsWith("."))) return [bare];
  return bare.split(".").filter((part) => part !== "");
}

function stripMarks(word: string): string {
  return /[^\x00-\x7f]/.test(word) ? word.normalize("NFKD").replace(/\p{M}/gu, "") : word;
}

function joinCompounds(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const a = tokens[i]!;
    const b = tokens[i + 1];
    if (isGolang(tokens, i)) {
      out.push({ ...a, key: "golang", kind: "content" });
      continue;
    }
    // Lower-case "it support", "it manager": information technology before an IT job word.
    if (a.words[0] === "it" && a.words.length === 1 && b !== undefined && IT_BEFORE.has(b.key)) {
      out.push({ ...a, key: "infotech", kind: "content" });
      continue;
    }
    const joined = b && a.words.length === 1 && b.words.length === 1 ? COMPOUNDS[`${a.words[0]} ${b.words[0]}`] : undefined;
    if (joined === undefined || b === undefined) {
      out.push(a);
      continue;
    }
    out.push({ key: fold(joined), words: [joined], kind: "content", chunk: a.chunk });
    i++;
  }
  return out;
}

/** "go" is the language in "go developer", "written in go" and "go or rust", the verb elsewhere. */
function isGolang(tokens: Token[], i: number): boolean {
  const token = tokens[i]!;
  if (token.words[0] !== "go" || token.words.length !== 1) return false;
  const before = tokens[i - 1];
  const after = tokens[i + 1];
  if ((after !== undefined && GO_BEFORE.has(after.key)) || (before !== undefined && GO_AFTER.has(before.words[0]!))) return true;
  // Beside another language, alone or across "and"/"or": "go/rust", "go and python", "java or go".
  const language = (t: Token | undefined) => t !== undefined && t.kind === "content" && GO_AFTER.has(t.words[0]!);
  const across = (t: Token | undefined, next: Token | undefined) => t !== undefined && COORDINATORS.has(t.words[0]!) && language(next);
  return language(after) || across(after, tokens[i + 2]) || across(before, tokens[i - 2]);
}

const COORDINATORS = new Set(["and", "or", "&"]);
/** Nothing but a sentence's end (or nothing at all) before: a capital there is no sign of a name. */
const SENTENCE_START = /(?:^|[.!?:;\n"“(])\s*$/;

const IT_BEFORE = new Set(IT_JOB_WORDS.map(fold));
