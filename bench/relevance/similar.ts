/**
 * Similar jobs, judged: `bun bench/relevance/similar.ts` (or `bun run eval --set similar`).
 *
 * A seeded sample of postings (sets/similar-own.ts and the frozen sets/similar-held-out.ts), stratified over
 * occupation families and languages, each with the one family its raw title names (occupation-family.ts, a
 * judge written for the bench, never the service's knowledge base). For each posting, its similar jobs (top 10,
 * as GET /v1/jobs/{id}/similar answers) are judged: a result shares the occupation when its raw title names
 * that family. Per part (own, held-out) and for the Chinese postings among them:
 * - same occupation: the share of the top 10 sharing it (mean over postings);
 * - plausible: the share of same-occupation results scored ≥ PLAUSIBLE_SCORE;
 * - wrong "no close match": pages whose best score is under PLAUSIBLE_SCORE while at least half the top 10 shares it;
 * - same language: the share of the top 10 written in the posting's language.
 *
 *   bun bench/relevance/similar.ts              the figures (writes bench/results/eval-similar.json)
 *   bun bench/relevance/similar.ts --families   titles with the families the judge reads, to check it by eye
 *   bun bench/relevance/similar.ts --sample     draws the sample again and writes both sets (not after the freeze)
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { PLAUSIBLE_SCORE } from "../../shared/search.ts";
import { similarJobs } from "../../server/search/similar.ts";
import { seededRandom } from "../perf/suite/stats.ts";
import { openEvalData, type EvalRecord } from "./dataset.ts";
import { mean } from "./metrics.ts";
import { isChinese, sharesFamily, singleFamily, titleFamilies } from "./occupation-family.ts";
import type { SimilarSample } from "./sets/similar-own.ts";

const RESULTS = resolve(import.meta.dir, "../results/eval-similar.json");
const K = 10;
const SEED = 20261127;
/** Postings drawn per language, round-robin over the families (the Chinese postings are 6% of the data). */
const DRAWN = { en: 200, zh: 40 } as const;

/** Runs the evaluation of similar jobs over both parts and prints its table. */
export async function runSimilar(options: { rebuild?: boolean } = {}): Promise<void> {
  const [{ SIMILAR_OWN }, { SIMILAR_HELD_OUT }] = await Promise.all([import("./sets/similar-own.ts"), import("./sets/similar-held-out.ts")]);
  const data = await openEvalData(Bun.env, { rebuild: options.rebuild });
  const deps = { store: data.store, embedder: data.embedder };
  const byId = new Map(data.records.map((record) => [record.id, record]));
  try {
    const judged: Judged[] = [];
    for (const sample of [...SIMILAR_OWN, ...SIMILAR_HELD_OUT]) {
      const { results } = await similarJobs(deps, sample.id, { top_k: K }, "get");
      judged.push(judgePage(sample, results, byId));
    }
    const rows = [
      summarize("own", judged.filter((j) => !j.sample.heldOut)),
      summarize("held-out", judged.filter((j) => j.sample.heldOut)),
      summarize("own, Chinese", judged.filter((j) => !j.sample.heldOut && j.sample.language === "zh")),
      summarize("held-out, Chinese", judged.filter((j) => j.sample.heldOut && j.sample.language === "zh")),
    ];
    console.log(`## Similar jobs: ${judged.length} postings, top ${K}, judged by the occupation family of the raw titles\n`);
    console.log("| part | postings | same occupation | same-occupation results scored ≥ 0.5 | wrong \"no close match\" | same language |");
    console.log("|---|---|---|---|---|---|");
    for (const r of rows) {
      console.log(`| ${r.part} | ${r.postings} | ${r.same.toFixed(3)} | ${r.plausible.toFixed(3)} | ${r.wrongNoCloseMatch} | ${r.sameLanguage.toFixed(3)} |`);
    }
    const worst = judged.filter((j) => !j.sample.heldOut).sort((a, b) => a.same - b.same).slice(0, 15);
    console.log(`\nown postings with the fewest same-occupation results:\n`);
    for (const j of worst) console.log(`- ${j.same.toFixed(1)} best ${j.best.toFixed(2)} [${j.sample.family}] ${j.sample.id} "${j.sample.title}" → ${j.titles.slice(0, 4).map((t) => JSON.stringify(t)).join(", ")}`);
    mkdirSync(dirname(RESULTS), { recursive: true });
    await Bun.write(RESULTS, `${JSON.stringify({ generated_at: new Date().toISOString(), k: K, rows, postings: judged }, null, 2)}\n`);
    console.log(`\nwritten to ${RESULTS}`);
  } finally {
    data.store.close();
  }
}

// --- internal ---

interface Judged {
  sample: SimilarSample;
  same: number;
  best: number;
  /** Scores of the same-occupation results. */
  sameScores: number[];
  sameLanguage: number;
  titles: string[];
}

function judgePage(sample: SimilarSample, results: Array<{ id: string; score: number }>, byId: Map<string, EvalRecord>): Judged {
  const records = results.map((r) => byId.get(r.id));
  const sharing = records.map((record) => sharesFamily(sample.family, titleFamilies(record?.job_title)));
  const language = records.map((record) => languageOf(record) === sample.language);
  const share = (flags: boolean[]) => (flags.length === 0 ? 0 : flags.filter(Boolean).length / flags.length);
  return {
    sample,
    same: share(sharing),
    best: Math.max(0, ...results.map((r) => r.score)),
    sameScores: results.filter((_, i) => sharing[i]).map((r) => r.score),
    sameLanguage: share(language),
    titles: records.map((record) => record?.job_title ?? "(none)"),
  };
}

function summarize(part: string, judged: Judged[]) {
  const scores = judged.flatMap((j) => j.sameScores);
  return {
    part,
    postings: judged.length,
    same: mean(judged.map((j) => j.same)),
    plausible: scores.length === 0 ? 0 : scores.filter((s) => s >= PLAUSIBLE_SCORE).length / scores.length,
    wrongNoCloseMatch: judged.filter((j) => j.best < PLAUSIBLE_SCORE && j.same >= 0.5).length,
    sameLanguage: mean(judged.map((j) => j.sameLanguage)),
  };
}

/** A Chinese-language posting: one of the Chinese source whose description is written in Chinese. */
function languageOf(record: EvalRecord | undefined): "zh" | "en" {
  return record?.data_source === "ruanyf-weekly" && isChinese(record.job_description) ? "zh" : "en";
}

/** The sample: per language, the postings whose title names one family, shuffled, drawn round-robin over families; then every other one of a family held out. */
function drawSample(records: EvalRecord[]): SimilarSample[] {
  const random = seededRandom(SEED);
  const drawn: SimilarSample[] = [];
  for (const language of ["en", "zh"] as const) {
    const byFamily = new Map<string, EvalRecord[]>();
    for (const record of records) {
      const family = singleFamily(record.job_title);
      if (family === undefined || languageOf(record) !== language) continue;
      byFamily.set(family, [...(byFamily.get(family) ?? []), record]);
    }
    const pools = [...byFamily.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([family, list]) => ({ family, list: shuffle(list, random), taken: 0 }));
    let count = 0;
    while (count < DRAWN[language] && pools.some((p) => p.taken < p.list.length)) {
      for (const pool of pools) {
        if (count >= DRAWN[language] || pool.taken >= pool.list.length) continue;
        const record = pool.list[pool.taken]!;
        drawn.push({ id: record.id, family: pool.family, language, title: record.job_title ?? "", heldOut: false });
        pool.taken++;
        count++;
      }
    }
  }
  // Every other posting of a family held out, the families one after another (so an odd one out alternates).
  const ordered = [...drawn].sort((a, b) => (a.language + a.family < b.language + b.family ? -1 : a.language + a.family > b.language + b.family ? 1 : 0));
  ordered.forEach((sample, i) => (sample.heldOut = i % 2 === 1));
  return ordered;
}

function shuffle<T>(list: T[], random: () => number): T[] {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

async function writeSample(records: EvalRecord[]): Promise<void> {
  const drawn = drawSample(records);
  const header = (part: string) =>
    `/**\n * Similar jobs' judged sample, the ${part} (bench/relevance/similar.ts --sample: seed ${SEED}, ${DRAWN.en} English and ${DRAWN.zh} Chinese\n` +
    ` * postings drawn round-robin over the occupation families their raw titles name, every other one of a family held out).\n */\n`;
  const lines = (heldOut: boolean) => drawn.filter((s) => s.heldOut === heldOut).map((s) => `  ${JSON.stringify(s)},`).join("\n");
  await Bun.write(
    resolve(import.meta.dir, "sets/similar-own.ts"),
    `${header("own part (tuned on)")}\n/** A sampled posting: its id, the one family its title names, its language, and whether it is held out. */\nexport interface SimilarSample {\n  id: string;\n  family: string;\n  language: "en" | "zh";\n  title: string;\n  heldOut: boolean;\n}\n\nexport const SIMILAR_OWN: SimilarSample[] = [\n${lines(false)}\n];\n`,
  );
  await Bun.write(
    resolve(import.meta.dir, "sets/similar-held-out.ts"),
    `${header("held-out part (never tuned on; frozen by similar-held-out.sha256)")}import type { SimilarSample } from "./similar-own.ts";\n\nexport const SIMILAR_HELD_OUT: SimilarSample[] = [\n${lines(true)}\n];\n`,
  );
  console.log(`wrote ${drawn.filter((s) => !s.heldOut).length} own and ${drawn.filter((s) => s.heldOut).length} held-out postings (${drawn.filter((s) => s.language === "zh").length} Chinese)`);
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Bun.argv.slice(2), options: { families: { type: "boolean" }, sample: { type: "boolean" }, rebuild: { type: "boolean" } } });
  if (values.families || values.sample) {
    const { readRecords } = await import("../../server/ingest/read.ts");
    const { SHARED_DATA } = await import("./dataset.ts");
    const records = (await readRecords(SHARED_DATA)).map((raw) => raw.value as EvalRecord);
    if (values.sample) await writeSample(records);
    else for (const record of records.filter((_, i) => i % 97 === 0)) console.log(`${[...titleFamilies(record.job_title)].join("+").padEnd(24)} ${record.job_title}`);
  } else {
    await runSimilar({ rebuild: values.rebuild });
  }
}
