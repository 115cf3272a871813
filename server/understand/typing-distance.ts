/*
 * How far apart two words are for a person typing: a slip onto a neighbouring key or a swap of two
 * letters costs less than any other change, so "ebgineer" is nearer "engineer" than "endineer" is.
 */

/**
 * Optimal-string-alignment distance where dropping, doubling or inserting a letter, swapping two
 * neighbours and hitting a neighbouring key (or another vowel) cost 1, and any other substitution 1.5.
 */
export function typingDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const x = a[i - 1]!;
      const y = b[j - 1]!;
      const substitution = x === y ? 0 : NEIGHBOURS[x]?.includes(y) || (VOWELS.has(x) && VOWELS.has(y)) ? 1 : 1.5;
      let cost = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + substitution);
      if (i > 1 && j > 1 && x === b[j - 2] && a[i - 2] === y) cost = Math.min(cost, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = cost;
    }
  }
  return d[rows * cols - 1]!;
}

// --- internal ---

/** Neighbouring keys on a QWERTY keyboard. */
const NEIGHBOURS: Record<string, string> = {
  q: "wa", w: "qesa", e: "wrds", r: "etfd", t: "ryfg", y: "tugh", u: "yihj", i: "uojk", o: "ipkl", p: "ol",
  a: "qwsz", s: "awedxz", d: "serfcx", f: "drtgvc", g: "ftyhbv", h: "gyujnb", j: "huikmn", k: "jiolm", l: "kop",
  z: "asx", x: "zsdc", c: "xdfv", v: "cfgb", b: "vghn", n: "bhjm", m: "njk",
};

const VOWELS = new Set("aeiou");
