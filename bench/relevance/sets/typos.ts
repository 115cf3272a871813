import { seededRandom } from "../../perf/suite/stats.ts";

/**
 * Realistic typing errors, seeded: the same seed gives the same misspelling. One or two errors per
 * query, in words of four letters or more: a letter dropped, doubled, swapped with its neighbour, or
 * replaced by a key next to it on a QWERTY keyboard (the four commonest kinds of typo).
 */
export function misspell(query: string, seed: number): string {
  const random = seededRandom(seed);
  const words = query.split(" ");
  const candidates = words.map((word, i) => i).filter((i) => /^[a-z]{4,}$/i.test(words[i]!));
  if (candidates.length === 0) return query;
  const errors = candidates.length > 1 && random() < 0.4 ? 2 : 1;
  for (let e = 0; e < errors; e++) {
    const at = candidates[Math.floor(random() * candidates.length)]!;
    words[at] = typo(words[at]!, random);
  }
  return words.join(" ");
}

// --- internal ---

const NEIGHBOURS: Record<string, string> = {
  q: "wa", w: "qes", e: "wrd", r: "etf", t: "ryg", y: "tuh", u: "yij", i: "uok", o: "ipl", p: "ol",
  a: "qsz", s: "adwx", d: "sfe", f: "dgr", g: "fht", h: "gjy", j: "hku", k: "jli", l: "ko",
  z: "ax", x: "zcs", c: "xvd", v: "cbf", b: "vng", n: "bmh", m: "nj",
};

function typo(word: string, random: () => number): string {
  // Not the first letter: people rarely mistype it.
  const at = 1 + Math.floor(random() * (word.length - 1));
  const kind = Math.floor(random() * 4);
  const letter = word[at]!;
  if (kind === 0) return word.slice(0, at) + word.slice(at + 1);
  if (kind === 1) return word.slice(0, at) + letter + word.slice(at);
  if (kind === 2 && at < word.length - 1) return word.slice(0, at) + word[at + 1] + letter + word.slice(at + 2);
  const near = NEIGHBOURS[letter.toLowerCase()] ?? letter;
  return word.slice(0, at) + near[Math.floor(random() * near.length)] + word.slice(at + 1);
}
