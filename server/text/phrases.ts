/*
 * Phrases of a few words (skills, job titles) looked up by their words' keys joined with spaces. At each
 * word a phrase is grown only while some phrase starts with it: joining every run of words up to the
 * longest phrase's length cost a CV's reading and a page's skill lists most of their time.
 */

/** Every run of leading words of `keys` shorter than its key ("machine" of "machine learning"). */
export function phraseStarts(keys: Iterable<string>): Set<string> {
  const starts = new Set<string>();
  for (const key of keys) {
    for (let at = key.indexOf(" "); at > 0; at = key.indexOf(" ", at + 1)) starts.add(key.slice(0, at));
  }
  return starts;
}

/**
 * The phrases `known` has that start at word `i` of `keys` (words' keys), longest first, of at most
 * `longest` words; `starts` are phraseStarts of `known`'s keys.
 */
export function phrasesAt(keys: readonly string[], i: number, known: { has(key: string): boolean }, starts: ReadonlySet<string>, longest = Infinity): Array<{ key: string; n: number }> {
  const found: Array<{ key: string; n: number }> = [];
  let key = "";
  for (let n = 1; n <= longest && i + n <= keys.length; n++) {
    key = n === 1 ? keys[i]! : `${key} ${keys[i + n - 1]!}`;
    if (known.has(key)) found.push({ key, n });
    if (!starts.has(key)) break;
  }
  return found.reverse();
}
