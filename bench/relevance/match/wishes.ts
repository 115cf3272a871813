/**
 * `bun bench/relevance/match/wishes.ts`: how many judged profile lines (sets/wishes/) matching reads exactly
 * as judged — the requirements it applies, the preferences it ranks by, where the person is — each line read
 * after the first line of a CV, against the relevance evaluation's table (its places and term statistics).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { readProfile } from "../../../server/match/profile.ts";
import { skillVocabulary } from "../../../server/match/skills.ts";
import { openEvalData } from "../dataset.ts";
import { WISHES_HELD_OUT, type WishCase } from "../sets/wishes/held-out.ts";
import { WISHES_OWN } from "../sets/wishes/own.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const FAMILIES = ["city", "country", "remote", "employment_type"] as const;
const CV_LINE = "Data engineer with five years of Python and SQL.";

const [line] = readFileSync(resolve(ROOT, "bench/relevance/sets/wishes/held-out.sha256"), "utf8").trim().split("\n");
const [hash, path] = line!.split(/\s+\*?/);
const frozen = createHash("sha256").update(readFileSync(resolve(ROOT, path!))).digest("hex") === hash;

const { store } = await openEvalData(process.env);
const context = { vocabulary: skillVocabulary(await store.tagCounts(), store.termStats()), facets: await store.facets(), stats: store.termStats(), now: new Date() };

console.log("| part | lines | read as judged | requirements | preferences | where the person is | nothing to read |\n|---|---|---|---|---|---|---|");
for (const [part, cases] of [["own", WISHES_OWN], ["held-out", WISHES_HELD_OUT]] as const) {
  const kinds = new Map<string, { right: number; of: number }>();
  let right = 0;
  const wrong: string[] = [];
  for (const wish of cases) {
    const reading = readProfile(`${CV_LINE}\n${wish.text}`, context);
    const ok = same(reading.filters, wish.filters) && same(reading.preferred ?? {}, wish.preferred) && same(reading.nearby, wish.nearby);
    const kind = kindOf(wish);
    const tally = kinds.get(kind) ?? { right: 0, of: 0 };
    kinds.set(kind, { right: tally.right + (ok ? 1 : 0), of: tally.of + 1 });
    if (ok) right++;
    else if (part === "own") wrong.push(`${wish.text} → ${JSON.stringify({ filters: reading.filters, preferred: reading.preferred, nearby: reading.nearby })}`);
  }
  const cell = (kind: string) => (kinds.has(kind) ? `${kinds.get(kind)!.right}/${kinds.get(kind)!.of}` : "–");
  console.log(`| ${part} | ${cases.length} | ${right} (${((100 * right) / cases.length).toFixed(0)}%) | ${cell("requirement")} | ${cell("preference")} | ${cell("nearby")} | ${cell("none")} |`);
  if (wrong.length > 0) console.log(wrong.map((w) => `  - ${w}`).join("\n"));
}
console.log(`held-out part as frozen: ${frozen}`);

/** The kind a line is judged as: what it states first among requirement, preference and where the person is. */
function kindOf(wish: WishCase): string {
  if (Object.keys(wish.filters ?? {}).length > 0) return "requirement";
  if (Object.keys(wish.preferred ?? {}).length > 0) return "preference";
  if (Object.keys(wish.nearby ?? {}).length > 0) return "nearby";
  return "none";
}

/** Whether the read filters of the judged families equal the judged ones (a single value as a list of one, lists in any order). */
function same(read: Record<string, unknown>, judged: Partial<Record<string, unknown>> = {}): boolean {
  const norm = (value: unknown) => JSON.stringify(Array.isArray(value) ? [...value].sort() : typeof value === "string" ? [value] : value);
  return FAMILIES.every((family) => norm(read[family]) === norm(judged[family]));
}
