import { seededRandom } from "../../perf/suite/stats.ts";

/**
 * A seeded model of how people mistype a job search (broad set A). The same query and seed always give
 * the same misspelling. Each query gets one error, or two with probability 0.35, of one of these kinds:
 *
 * - observed: a misspelling that really occurs in the shared postings (found by scanning their words for
 *   rare one-edit neighbours of frequent words: "developper" 14 times beside "developer" 18,227 times,
 *   "sofware", "javascipt", "kubernates", "infastructure", "andriod", "pyhton", "manger", "techincal" …);
 * - neighbour: a letter replaced by one next to it on a QWERTY keyboard;
 * - dropped, doubled, swapped: a letter left out, typed twice, or swapped with the next one;
 * - split: a compound written as two words ("type script", "front end", "java script");
 * - joined: two words run together ("datascience", "machinelearning").
 *
 * The first letter of a word is never touched (people rarely mistype it), and only words of four
 * letters or more are mistyped letter by letter.
 */
export function typingErrors(query: string, seed: number): string {
  const random = seededRandom(seed);
  const errors = random() < 0.35 ? 2 : 1;
  let text = query;
  for (let e = 0; e < errors; e++) text = oneError(text, random);
  return text;
}

/** Misspellings found in the shared postings (job_title + job_description), by the word they stand for. */
export const OBSERVED_MISSPELLINGS: Record<string, string[]> = {
  developer: ["developper", "devleoper", "develoer"],
  software: ["sofware", "softare"],
  javascript: ["javascipt", "javscript", "javacript"],
  kubernetes: ["kubernates", "kubernentes"],
  infrastructure: ["infastructure", "infrastucture", "infrastruture"],
  python: ["pyhton", "pyhon"],
  backend: ["backened", "backand"],
  android: ["andriod", "andorid", "adroid"],
  manager: ["manger"],
  postgresql: ["postgressql", "postresql"],
  postgres: ["postgre", "postgress"],
  technical: ["techincal", "techinical"],
  engineer: ["enginner", "engineeer", "enginer"],
  engineering: ["enginering", "enginnering"],
  experience: ["experince", "expereince"],
  administrator: ["adminstrator", "administator"],
  reliability: ["reliablity", "relability"],
  platform: ["platfrom", "plaform"],
  management: ["managment", "mangement"],
  scientist: ["sciencist"],
  designer: ["desiner", "desginer"],
  haskell: ["haskel"],
  blockchain: ["blockhain"],
  machine: ["maschine"],
  architect: ["architech", "architekt"],
  salary: ["sallary"],
  marketing: ["marekting"],
  angular: ["angluar", "angualar"],
  elasticsearch: ["elasticserach", "elastisearch"],
  development: ["developement", "devlopment"],
  customer: ["curstomer"],
  security: ["secrurity"],
  research: ["reseach", "reasearch"],
};

/** Compounds people write apart, and word pairs they run together. */
const SPLITS: Record<string, string> = {
  typescript: "type script",
  javascript: "java script",
  frontend: "front end",
  backend: "back end",
  fullstack: "full stack",
  devops: "dev ops",
  postgresql: "postgre sql",
  firmware: "firm ware",
  blockchain: "block chain",
  copywriter: "copy writer",
  bookkeeper: "book keeper",
  payroll: "pay roll",
  cybersecurity: "cyber security",
};

// --- internal ---

const NEIGHBOURS: Record<string, string> = {
  q: "wa", w: "qes", e: "wrd", r: "etf", t: "ryg", y: "tuh", u: "yij", i: "uok", o: "ipl", p: "ol",
  a: "qsz", s: "adwx", d: "sfe", f: "dgr", g: "fht", h: "gjy", j: "hku", k: "jli", l: "ko",
  z: "ax", x: "zcs", c: "xvd", v: "cbf", b: "vng", n: "bmh", m: "nj",
};

type Kind = "observed" | "split" | "joined" | "neighbour" | "dropped" | "doubled" | "swapped";

function oneError(text: string, random: () => number): string {
  const words = text.split(" ");
  const lower = words.map((word) => word.toLowerCase());
  const observed = lower.map((word, i) => i).filter((i) => OBSERVED_MISSPELLINGS[lower[i]!] !== undefined);
  const splittable = lower.map((word, i) => i).filter((i) => SPLITS[lower[i]!] !== undefined);
  const joinable = words.slice(0, -1).map((word, i) => i).filter((i) => /^[a-z]{2,}$/i.test(words[i]!) && /^[a-z]{2,}$/i.test(words[i + 1]!));
  const letters = words.map((word, i) => i).filter((i) => /^[a-z]{4,}$/i.test(words[i]!));

  // Observed misspellings and splits are preferred where the query allows them: they are the errors real
  // people make most often with these words; the letter-level slips fill in the rest.
  const kinds: Kind[] = [];
  if (observed.length > 0) kinds.push("observed", "observed");
  if (splittable.length > 0) kinds.push("split");
  if (joinable.length > 0) kinds.push("joined");
  if (letters.length > 0) kinds.push("neighbour", "dropped", "doubled", "swapped");
  if (kinds.length === 0) return text;
  const kind = kinds[Math.floor(random() * kinds.length)]!;
  const pick = (from: number[]) => from[Math.floor(random() * from.length)]!;

  if (kind === "observed") {
    const at = pick(observed);
    const options = OBSERVED_MISSPELLINGS[lower[at]!]!;
    words[at] = options[Math.floor(random() * options.length)]!;
    return words.join(" ");
  }
  if (kind === "split") {
    const at = pick(splittable);
    words[at] = SPLITS[lower[at]!]!;
    return words.join(" ");
  }
  if (kind === "joined") {
    const at = pick(joinable);
    words.splice(at, 2, words[at]! + words[at + 1]!);
    return words.join(" ");
  }
  const at = pick(letters);
  words[at] = letterSlip(words[at]!, kind, random);
  return words.join(" ");
}

function letterSlip(word: string, kind: Kind, random: () => number): string {
  const at = 1 + Math.floor(random() * (word.length - 1));
  const letter = word[at]!;
  if (kind === "dropped") return word.slice(0, at) + word.slice(at + 1);
  if (kind === "doubled") return word.slice(0, at) + letter + word.slice(at);
  if (kind === "swapped" && at < word.length - 1 && word[at + 1] !== letter) return word.slice(0, at) + word[at + 1] + letter + word.slice(at + 2);
  const near = NEIGHBOURS[letter.toLowerCase()] ?? letter;
  return word.slice(0, at) + near[Math.floor(random() * near.length)] + word.slice(at + 1);
}
