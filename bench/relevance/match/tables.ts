/** The printed tables of `--set match`: P@10 per group of profiles and mode, and the skill lists' check. */
import { mean } from "../metrics.ts";
import { markdownTable } from "../report.ts";
import { MATCH_MODE_LABELS, type MatchMode } from "./modes.ts";
import { statesWishes, type Part, type Profile } from "./profiles.ts";
import { PRECISION_GOAL, RECALL_GOAL, share, type Ratio, type SkillCheck } from "./skills.ts";

/** One profile's page in one mode, judged. */
export interface Judged {
  profile: Profile;
  mode: MatchMode;
  ms: number;
  precision: number;
  ndcg: number;
  relevantInData: number;
  /** The judged top K, one line each ("+ 0.83 Senior Backend Engineer | London"). */
  page: string[];
}

/** Rows: all profiles, then each style, level, and with or without wishes; per mode, own and held-out P@10 and the gap. */
export function groupTable(judged: Judged[]): string {
  const profiles = [...new Map(judged.map((j) => [j.profile.id, j.profile])).values()];
  const groups: Array<[string, (p: Profile) => boolean]> = [
    ["all", () => true],
    ...unique(profiles.map((p) => p.style)).map((style): [string, (p: Profile) => boolean] => [`style: ${style}`, (p) => p.style === style]),
    ...unique(profiles.map((p) => p.level)).map((level): [string, (p: Profile) => boolean] => [`level: ${level}`, (p) => p.level === level]),
    ["states wishes", statesWishes],
    ["no wishes", (p) => !statesWishes(p)],
  ];
  const modes = unique(judged.map((j) => j.mode));
  const rows = groups.flatMap(([name, member]) => modes.map((mode) => {
    const of = (part: Part) => judged.filter((j) => j.mode === mode && j.profile.part === part && member(j.profile));
    const own = of("own");
    const heldOut = of("held-out");
    const gap = mean(heldOut.map((j) => j.precision)) - mean(own.map((j) => j.precision));
    return [name, MATCH_MODE_LABELS[mode], `${own.length}/${heldOut.length}`, cell(own), cell(heldOut), signed(gap)];
  }));
  return markdownTable(["profiles", "mode", "count (own/held-out)", "own P@10", "held-out P@10", "gap"], rows);
}

/** Precision and recall of the skill lists against their goals. */
export function skillTable(check: SkillCheck): string {
  if (check.results === 0) return "no result carried match.matched_skills and match.missing_skills: nothing to check";
  const row = (name: string, value: Ratio, goal: number) => {
    const figure = share(value);
    return [name, Number.isNaN(figure) ? "–" : figure.toFixed(3), `${value.hits}/${value.of}`, `≥ ${goal.toFixed(2)}`, Number.isNaN(figure) ? "–" : figure >= goal ? "met" : "NOT met"];
  };
  const table = markdownTable(["measure", "value", "hits/of", "goal", ""], [
    row("matched_skills precision (in the profile and the posting)", check.matchedPrecision, PRECISION_GOAL),
    row("missing_skills precision (in the posting, not the profile)", check.missingPrecision, PRECISION_GOAL),
    row("matched recall (posting tags the profile mentions)", check.matchedRecall, RECALL_GOAL),
    row("missing recall (posting tags the profile does not mention)", check.missingRecall, RECALL_GOAL),
  ]);
  const examples = check.examples.length === 0 ? "" : `\n\nwrong entries, for example:\n${check.examples.map((e) => `- ${e}`).join("\n")}`;
  return `${check.results} results with skill lists\n\n${table}${examples}`;
}

// --- internal ---

function cell(judged: Judged[]): string {
  return judged.length === 0 ? "–" : mean(judged.map((j) => j.precision)).toFixed(3);
}

function signed(value: number): string {
  return Number.isNaN(value) ? "–" : `${value >= 0 ? "+" : ""}${value.toFixed(3)}`;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
