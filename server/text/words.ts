/*
 * Words as understanding reads them where it needs more than query-tokens.ts gives: the words spelling
 * may correct, the words of the knowledge base as written, and the words of a place name with where
 * each stands. Each is named for what differs from the others.
 */

/**
 * A word spelling reads (to correct it, or to join it with the next): two or more ASCII letters, not
 * part of a token such as c++, node.js or a word with digits. Only words of three letters or more are corrected.
 */
export const SPELLED_WORD = /(?<![\p{L}\p{N}])[a-zA-Z]{2,}(?![\p{L}\p{N}+#.])/gu;

/** Whether a (folded) word can be in the spelling vocabulary: three or more ASCII letters. */
export function isVocabularyWord(word: string): boolean {
  return /^[a-z]{3,}$/.test(word);
}

/** A text's words as written, lowercased: starting with a letter, tokens such as c++, c# and node.js whole. */
export function writtenWords(text: string): string[] {
  return text.toLowerCase().match(/[a-z][a-z0-9+#.]*/g) ?? [];
}

/** The words of a text that may name a place, each with where it stands: letters and digits, inner apostrophes and dots kept ("St. John's"). */
export function nameWords(text: string): Array<{ word: string; start: number; end: number }> {
  return [...text.matchAll(NAME_WORD)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));
}

// --- internal ---

const NAME_WORD = /[\p{L}\p{N}][\p{L}\p{N}'.]*/gu;
