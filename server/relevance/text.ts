/** Han, Hiragana, Katakana and Hangul: scripts written without spaces between words. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
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
 * Lowercased word tokens with light suffix folding (developers → developer, engineering → engineer),
 * keeping tokens such as c++, c#, node.js and .net whole.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const [word] of text.toLowerCase().matchAll(WORD)) tokens.push(fold(word));
  return tokens;
}

/** Folds the commonest English inflections so a query word meets its variants. */
export function fold(word: string): string {
  if (word.length <= 3 || /[^a-z]/.test(word)) return word;
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  const ship = /^([a-z]{4,})ships?$/.exec(word);
  if (ship) return ship[1]!;
  if (word.endsWith("ing") && word.length > 6) return word.slice(0, -3);
  if (word.endsWith("ers") || word.endsWith("ors")) return word.slice(0, -1);
  if (word.endsWith("ss") || word.endsWith("us") || word.endsWith("is")) return word;
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}
