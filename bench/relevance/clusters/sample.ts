/**
 * Draws the clusters' judged pairs (bun bench/relevance/clusters/sample.ts): real pairs of the shared
 * postings found by rules written here for the bench (not the service's matcher), and synthetic
 * copies (synthetic.ts). Labels: reposts of identical text (titles alike) and of the same company's
 * same title with text of word-triple Jaccard ≥ 0.8 are the same job; two titles with no word in
 * common at one company (text Jaccard < 0.5), titles that differ by seniority alone at one company
 * (text < 0.9), one company's same title with text < 0.15, and one title at two companies are not;
 * a synthetic copy is what its recipe says. Each kind is shuffled (seed 20261127) and dealt
 * alternately to the own and held-out halves, written to sets/clusters/.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { SHARED_DATA } from "../dataset.ts";
import { seeded, type Recipe, type SourcePosting, type SyntheticRef } from "./synthetic.ts";

export interface JudgedPair {
  a: string;
  /** A shared posting's id, or a synthetic posting's recipe. */
  b: string | SyntheticRef;
  same: boolean;
  kind: string;
}

const SETS = resolve(import.meta.dir, "../sets/clusters");
const random = seeded(20261127);

export async function readShared(): Promise<SourcePosting[]> {
  const text = new TextDecoder().decode(Bun.gunzipSync(await Bun.file(SHARED_DATA).bytes()));
  return text.trim().split("\n").map((line) => JSON.parse(line) as SourcePosting);
}

// --- internal ---

const key = (text: string | null) => (text ?? "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
const words = (text: string | null) => new Set(key(text).split(" ").filter(Boolean));
const SENIOR = new Set(["senior", "sr", "junior", "jr", "lead", "principal", "staff", "head"]);

function triples(text: string): Set<string> {
  const list = key(text).split(" ");
  const out = new Set<string>();
  for (let i = 0; i + 3 <= list.length; i++) out.add(`${list[i]} ${list[i + 1]} ${list[i + 2]}`);
  if (list.length < 3) out.add(list.join(" "));
  return out;
}

function jaccard<T>(a: Set<T>, b: Set<T>): number {
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared || 1);
}

function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function realPairs(postings: SourcePosting[]): JudgedPair[] {
  const kinds = new Map<string, JudgedPair[]>();
  const put = (kind: string, a: SourcePosting, b: SourcePosting, same: boolean) => {
    const list = kinds.get(kind) ?? kinds.set(kind, []).get(kind)!;
    list.push({ a: a.id, b: b.id, same, kind });
  };
  const cache = new Map<string, Set<string>>();
  const textOf = (p: SourcePosting) => cache.get(p.id) ?? cache.set(p.id, triples(p.job_description)).get(p.id)!;
  const byText = group(postings, (p) => key(p.job_description));
  for (const list of byText.values()) {
    if (list.length < 2) continue;
    const [a, b] = [list[0]!, list[list.length - 1]!];
    const companies = key(a.company_name) === "" || key(b.company_name) === "" || key(a.company_name) === key(b.company_name);
    const titles = key(a.job_title) === key(b.job_title) || jaccard(words(a.job_title), words(b.job_title)) >= 0.5;
    if (companies && titles) put("repost-exact", a, b, true);
  }
  const byCompany = group(postings.filter((p) => key(p.company_name) !== ""), (p) => key(p.company_name));
  for (const list of shuffled([...byCompany.values()].filter((l) => l.length > 1))) {
    const [a, b] = shuffled(list);
    const titleA = words(a!.job_title), titleB = words(b!.job_title);
    if (titleA.size === 0 || titleB.size === 0) continue;
    const text = jaccard(textOf(a!), textOf(b!));
    const same = key(a!.job_title) === key(b!.job_title);
    const plain = (set: Set<string>) => [...set].filter((w) => !SENIOR.has(w)).sort().join(" ");
    if (same && text >= 0.8 && text < 1) put("repost-near", a!, b!, true);
    else if (same && text < 0.15) put("one-company-same-title-other-text", a!, b!, false);
    else if (!same && plain(titleA) === plain(titleB) && text < 0.9) put("one-company-seniority", a!, b!, false);
    else if (jaccard(titleA, titleB) === 0 && text < 0.5) put("one-company-other-title", a!, b!, false);
  }
  const byTitle = group(postings.filter((p) => key(p.job_title) !== "" && key(p.company_name) !== ""), (p) => key(p.job_title));
  for (const list of shuffled([...byTitle.values()].filter((l) => l.length > 1))) {
    const [a, b] = shuffled(list);
    if (key(a!.company_name) !== key(b!.company_name)) put("one-title-two-companies", a!, b!, false);
  }
  const wanted: Record<string, number> = {
    "repost-exact": 70, "repost-near": 60, "one-company-other-title": 50, "one-company-seniority": 30,
    "one-company-same-title-other-text": 40, "one-title-two-companies": 40,
  };
  return Object.entries(wanted).flatMap(([kind, count]) => shuffled(kinds.get(kind) ?? []).slice(0, count));
}

function syntheticPairs(postings: SourcePosting[]): JudgedPair[] {
  const bases = shuffled(postings.filter((p) => p.job_description.length >= 200 && key(p.job_title) !== "" && key(p.company_name) !== ""));
  const byTitle = group(bases, (p) => key(p.job_title));
  const wanted: Array<[Recipe, number, boolean]> = [
    ["other-source", 25, true], ["tracking-url", 25, true], ["agency", 30, true], ["edited", 30, true],
    ["agency-edited", 30, true], ["other-role", 25, false], ["agency-other-text", 25, false],
  ];
  const pairs: JudgedPair[] = [];
  let next = 0;
  for (const [recipe, count, same] of wanted) {
    for (let i = 0; i < count; i++) {
      const base = bases[next++]!;
      const seed = 1000 + next;
      let other: SourcePosting | undefined;
      if (recipe === "other-role") {
        do other = bases[Math.floor(random() * bases.length)]!;
        while (jaccard(words(other.job_title), words(base.job_title)) > 0 || key(other.job_description) === key(base.job_description));
      } else if (recipe === "agency-other-text") {
        const sameTitle = (byTitle.get(key(base.job_title)) ?? []).filter((p) => key(p.company_name) !== key(base.company_name));
        other = sameTitle[0] ?? bases[Math.floor(random() * bases.length)]!;
      }
      pairs.push({ a: base.id, b: { base: base.id, recipe, ...(other ? { other: other.id } : {}), seed }, same, kind: `synthetic-${recipe}` });
    }
  }
  return pairs;
}

function group<T>(items: T[], by: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = by(item);
    const list = out.get(k);
    if (list === undefined) out.set(k, [item]);
    else list.push(item);
  }
  return out;
}

function write(part: "own" | "held-out", pairs: JudgedPair[]): void {
  const name = part === "own" ? "CLUSTER_PAIRS_OWN" : "CLUSTER_PAIRS_HELD_OUT";
  const note = part === "own" ? "the own half (tuned on)" : "the held-out half (never tuned on, never looked at pair by pair; frozen by held-out.sha256)";
  const body = pairs.map((pair) => `  ${JSON.stringify(pair)},`).join("\n");
  writeFileSync(
    `${SETS}/${part}.ts`,
    `/** Judged pairs of the same job, ${note}: drawn by bench/relevance/clusters/sample.ts (seed 20261127). */\nimport type { JudgedPair } from "../../clusters/sample.ts";\n\nexport const ${name}: JudgedPair[] = [\n${body}\n];\n`,
  );
}

if (import.meta.main) {
  const postings = await readShared();
  const pairs = [...realPairs(postings), ...syntheticPairs(postings)];
  const own = pairs.filter((_, i) => i % 2 === 0);
  const heldOut = pairs.filter((_, i) => i % 2 === 1);
  write("own", own);
  write("held-out", heldOut);
  const hash = new Bun.CryptoHasher("sha256").update(await Bun.file(`${SETS}/held-out.ts`).text()).digest("hex");
  writeFileSync(`${SETS}/held-out.sha256`, `${hash}  bench/relevance/sets/clusters/held-out.ts\n`);
  console.log(`${pairs.length} pairs: ${own.length} own, ${heldOut.length} held out; held-out sha256 ${hash}`);
}
