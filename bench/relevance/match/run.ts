/**
 * `bun run eval --set match`: the judged profiles of sets/profiles/ (issue 25, item 4) over the shared postings,
 * in each mode of modes.ts (bm25 on the whole text, the plain search of the text, the service's matching).
 * Per part (own, held-out), style, level and wishes: P@10 and the gap (held-out minus own); for `match`, the
 * skill lists checked from raw text (skills.ts). Writes bench/results/eval-match.json with the own part's pages
 * only: the held-out part's pages are never shown.
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { openEvalData, type EvalRecord } from "../dataset.ts";
import { K, countRelevant } from "../evaluate.ts";
import { checkJudge, isRelevant } from "../judge.ts";
import { ndcgAt, percentile, precisionAt } from "../metrics.ts";
import { showRegex } from "../report.ts";
import { MATCH_MODES, MATCH_MODE_LABELS, pageFunctions, type MatchMode, type MatchedJob } from "./modes.ts";
import { asJudgedQuery, changedHeldOut, loadProfiles, type Profile } from "./profiles.ts";
import { groupTable, skillTable, type Judged } from "./tables.ts";
import { checkSkills, type SkillCheck } from "./skills.ts";

const RESULTS = resolve(import.meta.dir, "../../results/eval-match.json");
/** Every profile's judge accepts at least this many postings (the counts are in the sets' comments). */
const FEW_RELEVANT = 10;

/** Evaluates the profiles in `modes` (default: all three) and prints the tables. */
export async function runMatch(options: { rebuild: boolean; modes?: MatchMode[] }): Promise<void> {
  const profiles = loadProfiles();
  profiles.map(asJudgedQuery).forEach(checkJudge);
  const changed = changedHeldOut();
  for (const path of changed) console.error(`warning: ${path} differs from the hash frozen in held-out.sha256: the held-out figures are not those of the frozen set`);
  const data = await openEvalData(Bun.env, { rebuild: options.rebuild });
  const deps = { store: data.store, embedder: data.embedder };
  try {
    const counted = countRelevant(profiles.map(asJudgedQuery), data.records);
    const relevantInData = new Map(profiles.map((profile, i) => [profile.id, counted[i]!.relevantInData]));
    for (const profile of profiles.filter((p) => relevantInData.get(p.id)! < FEW_RELEVANT)) {
      console.error(`warning: profile ${profile.id} (${profile.part}) has only ${relevantInData.get(profile.id)} relevant postings in the data`);
    }
    const byUrl = new Map(data.records.map((record) => [record.job_url, record]));
    const pages = pageFunctions(deps, options.modes ?? [...MATCH_MODES]);
    const judged: Judged[] = [];
    const skills = new Map<MatchMode, SkillCheck>();
    for (const [mode, pageOf] of pages) {
      console.error(`evaluating ${mode}: ${profiles.length} profiles`);
      const runs: Array<{ text: string; page: MatchedJob[] }> = [];
      for (const profile of profiles) {
        const started = performance.now();
        const page = await pageOf(profile.text);
        const ms = performance.now() - started;
        runs.push({ text: profile.text, page });
        judged.push(judgePage(profile, mode, page, ms, relevantInData.get(profile.id)!, byUrl));
      }
      if (mode === "match") skills.set(mode, checkSkills(runs, byUrl));
    }
    const postings = await data.store.count();
    const parts = `${profiles.filter((p) => p.part === "own").length} own, ${profiles.filter((p) => p.part === "held-out").length} held-out`;
    console.log(`## Relevance, match: ${profiles.length} judged profiles (${parts}), ${postings} postings, model ${data.embedder.modelId}, top ${K}\n`);
    if (changed.length > 0) console.log(`note: the held-out part changed since it was frozen (${changed.join(", ")})\n`);
    console.log(`${groupTable(judged)}\n`);
    console.log("gap = held-out P@10 minus own P@10; wishes = profiles that state a condition (a city, remote, a contract, a junior role) judged on raw fields");
    const modesRun = [...pages.keys()];
    for (const mode of modesRun) {
      const ms = judged.filter((j) => j.mode === mode).map((j) => j.ms);
      // An empty page scores 0 like a wrong one; counted apart, as it has another cause (filters read from the text).
      const empty = judged.filter((j) => j.mode === mode && j.page.length === 0).length;
      console.log(`${mode}: ${empty} of ${profiles.length} pages empty; latency p50 ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms (one pass, no warm-up)`);
    }
    for (const [mode, check] of skills) console.log(`\n### Skill lists of ${mode} (checked from raw text)\n\n${skillTable(check)}`);
    await writeResults(profiles, judged, skills, relevantInData, { postings, model: data.embedder.modelId, dataDir: data.dataDir, changed });
    console.log(`\nwritten to ${RESULTS}`);
  } finally {
    data.store.close();
  }
}

// --- internal ---

function judgePage(profile: Profile, mode: MatchMode, page: MatchedJob[], ms: number, relevantInData: number, records: Map<string, EvalRecord>): Judged {
  const query = asJudgedQuery(profile);
  // Pages are displayed newest first unless sorted by relevance; the score restores the ranking.
  const ranked = [...page].sort((a, b) => b.score - a.score).map((job) => ({ job, relevant: isRelevant(query, records.get(job.job_url) ?? job) }));
  const judgments = ranked.map((r) => r.relevant);
  return {
    profile, mode, ms,
    precision: precisionAt(K, judgments),
    ndcg: ndcgAt(K, judgments, relevantInData),
    relevantInData,
    page: ranked.slice(0, K).map(({ job, relevant }) => `${relevant ? "+" : "-"} ${job.score.toFixed(2)} ${job.job_title ?? ""} | ${job.city ?? ""}`),
  };
}

async function writeResults(
  profiles: Profile[], judged: Judged[], skills: Map<MatchMode, SkillCheck>, relevantInData: Map<string, number>,
  meta: { postings: number; model: string; dataDir: string; changed: string[] },
): Promise<void> {
  mkdirSync(dirname(RESULTS), { recursive: true });
  const report = {
    generated_at: new Date().toISOString(),
    data_dir: meta.dataDir,
    postings: meta.postings,
    model: meta.model,
    k: K,
    modes: Object.fromEntries([...new Set(judged.map((j) => j.mode))].map((mode) => [mode, MATCH_MODE_LABELS[mode]])),
    held_out_as_frozen: meta.changed.length === 0,
    skills: Object.fromEntries(skills),
    profiles: profiles.map((profile) => ({
      id: profile.id,
      part: profile.part,
      style: profile.style,
      level: profile.level,
      judge: showRegex(profile.relevant),
      fields: profile.fields ? JSON.parse(JSON.stringify(profile.fields, (_, v) => (v instanceof RegExp ? showRegex(v) : v))) : undefined,
      relevant_in_data: relevantInData.get(profile.id),
      modes: Object.fromEntries(judged.filter((j) => j.profile.id === profile.id).map((j) => [j.mode, {
        precision: j.precision,
        ndcg: j.ndcg,
        ms: Math.round(j.ms),
        // The page only for the own part: the held-out part is never looked at.
        page: profile.part === "own" ? j.page : undefined,
      }])),
    })),
  };
  await Bun.write(RESULTS, `${JSON.stringify(report, null, 2)}\n`);
}
