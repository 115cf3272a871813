/**
 * The judged profiles of sets/profiles/: each judge (own.ts, held-out.ts) joined to its text (the .md file
 * of the same name), and a check that the held-out part is still the one frozen by held-out.sha256.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { JudgedQuery } from "../sets/queries.ts";
import { PROFILES_HELD_OUT } from "../sets/profiles/held-out.ts";
import { PROFILES_OWN, type JudgedProfile } from "../sets/profiles/own.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const SETS = resolve(import.meta.dir, "../sets/profiles");
const MARKER = /^<!-- profile: ([a-z0-9-]+) -->$/gm;

export type Part = "own" | "held-out";

export interface Profile extends JudgedProfile {
  part: Part;
  text: string;
}

/**
 * Every profile, own part first, each with its text; throws when a judge has no text or a text no judge, or
 * when an id is used twice (run.ts keys counts and pages by id: a shared id would mix a held-out profile's
 * figures and page into an own profile's entry of the results file).
 */
export function loadProfiles(): Profile[] {
  const profiles = [...withTexts(PROFILES_OWN, "own"), ...withTexts(PROFILES_HELD_OUT, "held-out")];
  const repeated = profiles.filter((profile, i) => profiles.findIndex((other) => other.id === profile.id) !== i);
  if (repeated.length > 0) throw new Error(`profile ids used twice (rename the own one): ${repeated.map((p) => p.id).join(", ")}`);
  return profiles;
}

/** The files of held-out.sha256 whose hash differs from the frozen one (empty: the held-out part is as frozen). */
export function changedHeldOut(): string[] {
  const lines = readFileSync(join(SETS, "held-out.sha256"), "utf8").trim().split("\n");
  return lines
    .map((line) => line.split(/\s+\*?/) as [string, string])
    .filter(([hash, path]) => createHash("sha256").update(readFileSync(join(ROOT, path))).digest("hex") !== hash)
    .map(([, path]) => path);
}

/** The profile as the judge machinery of judge.ts sees a query: only `relevant` and `fields` decide. */
export function asJudgedQuery(profile: Profile): JudgedQuery {
  return { query: profile.id, kind: "paraphrase", relevant: profile.relevant, fields: profile.fields, heldOut: profile.part === "held-out" };
}

/** With fields of its own, a profile states a wish (a city, a country, remote, a contract, a junior role). */
export function statesWishes(profile: JudgedProfile): boolean {
  return profile.fields !== undefined;
}

// --- internal ---

function withTexts(judges: JudgedProfile[], part: Part): Profile[] {
  const texts = readTexts(join(SETS, `${part}.md`));
  const unjudged = [...texts.keys()].filter((id) => !judges.some((judge) => judge.id === id));
  if (unjudged.length > 0) throw new Error(`${part}.md has profiles without a judge: ${unjudged.join(", ")}`);
  return judges.map((judge) => {
    const text = texts.get(judge.id);
    if (text === undefined) throw new Error(`${part}.md has no text for profile ${judge.id}`);
    return { ...judge, part, text };
  });
}

/** Each section from its marker line to the next marker (or the end), trimmed. */
function readTexts(path: string): Map<string, string> {
  const source = readFileSync(path, "utf8");
  const markers = [...source.matchAll(MARKER)];
  return new Map(markers.map((marker, i) => {
    const end = markers[i + 1]?.index ?? source.length;
    return [marker[1]!, source.slice(marker.index! + marker[0].length, end).trim()];
  }));
}
