/*
 * The one text normaliser: how words are cut and folded, at load (the stored ranking terms) and at
 * query time (ranking and query understanding). TEXT_FORMAT names this behaviour; the table records
 * the format it was loaded with, and opening it with another asks for a reload (store.ts), so stored
 * and query terms never drift apart. Change it with any change here.
 */
import { IRREGULAR, KEEP_E } from "../relevance/knowledge/words.ts";
export const TEXT_FORMAT = "text-2";

/** Han, Hiragana, Katakana and Hangul: scripts written without spaces between words (a regex class body). */
export const CJK_CLASS = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
const CJK = new RegExp(`[${CJK_CLASS}]`, "u");
const CJK_RUN = new RegExp(`[${CJK_CLASS}]+`, "gu");
const WORD = /[\p{L}\p{N}][\p{L}\p{N}+#]*(?:\.[\p{L}\p{N}]+)*[+#]*/gu;

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

/**
 * Overlapping character pairs of every CJK run ("前端工程师" → 前端 端工 工程 程师); a lone character
 * stays itself. This is the keyword path for text without spaces between words, the same at
 * ingest and at query time, so a query matches wherever its pairs occur.
 */
export function cjkBigrams(text: string): string[] {
  const out: string[] = [];
  for (const [run] of text.matchAll(CJK_RUN)) {
    const chars = [...run];
    if (chars.length === 1) out.push(run);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  }
  return out;
}

/**
 * Lowercased, folded words (developers → developer, iPhones → iphon), keeping tokens such as c++,
 * c#, node.js and .net whole: what ranking compares, stored at load and computed for each query.
 */
export function foldedWords(text: string): string[] {
  const tokens: string[] = [];
  for (const [word] of text.toLowerCase().matchAll(WORD)) tokens.push(fold(word));
  return tokens;
}

/** Light suffix folding: plurals, -ing and -ed, a final e ("iphones" → "iphon", "developing" → "develop"). */
export function fold(word: string): string {
  const irregular = IRREGULAR[word];
  if (irregular !== undefined) return irregular;
  if (word.length <= 3 || /[^a-z]/.test(word)) return word;
  let w = word;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(?:ss|ch|sh|x|z)es$/.test(w)) w = w.slice(0, -2);
  // "apis" and "kpis" are plurals; "analysis" and "redis" are not.
  else if (w.endsWith("s") && !/(?:ss|us)$/.test(w) && !(w.endsWith("is") && w.length > 4)) w = w.slice(0, -1);
  if (w.endsWith("ing") && w.length >= 6 && VOWEL.test(w.slice(0, -3))) w = restoreStem(w.slice(0, -3));
  else if (w.endsWith("ied") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("ed") && !w.endsWith("eed") && w.length >= 5 && VOWEL.test(w.slice(0, -2))) w = restoreStem(w.slice(0, -2));
  if (w.endsWith("e") && w.length > 4 && !KEEP_E.has(w)) w = w.slice(0, -1);
  return w;
}

// --- internal ---

const VOWEL = /[aeiouy]/;

/** Undoes a doubled consonant ("running" → "run") or restores a short verb's e ("coding" → "code"). */
function restoreStem(stem: string): string {
  if (/([bgmnprt])\1$/.test(stem)) return stem.slice(0, -1);
  if (stem.length <= 3 && /[^aeiou][aeiou][^aeiouwxy]$/.test(stem)) return `${stem}e`;
  return stem;
}
