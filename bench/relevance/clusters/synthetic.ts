/*
 * The synthetic postings of the clusters' judged pairs: made from a shared posting by a recipe, at
 * evaluation time (the sets hold recipes, never the texts, which are not ours to copy). Each is what
 * another source, an agency or a tracking link makes of a posting, or another role dressed as it.
 */
import { createRng } from "../../../server/demo/generate.ts";

/** A shared posting's fields as the recipes read them. */
export interface SourcePosting {
  id: string;
  job_title: string | null;
  company_name: string | null;
  city: string | null;
  country: string | null;
  publish_time: string;
  job_url: string;
  job_tags: string[] | null;
  data_source: string;
  seniority_level: string | null;
  employment_type: string | null;
  job_description: string;
  base_salary: string | null;
}

export const RECIPES = [
  /** The same posting on another source at another URL (same title, company, text). */
  "other-source",
  /** The same URL with tracking parameters, on another source. */
  "tracking-url",
  /** An agency's copy: no company, an agency's line before the text, "(m/f/d)" after the title. */
  "agency",
  /** Lightly edited: a sentence dropped, a few words changed, spacing and case changed, on another source. */
  "edited",
  /** An agency's edited copy without company nor city. */
  "agency-edited",
  /** Another role (the `other` posting's title and text) under this posting's company and city: not the same job. */
  "other-role",
  /** An agency's copy of another role with this posting's title: same title, the `other` posting's text. */
  "agency-other-text",
] as const;
export type Recipe = (typeof RECIPES)[number];

/** A synthetic posting: recipe applied to `base` (and `other`, for the recipes that take a second posting). */
export interface SyntheticRef {
  base: string;
  recipe: Recipe;
  other?: string;
  seed: number;
}

export function synthesize(ref: SyntheticRef, byId: Map<string, SourcePosting>): SourcePosting {
  const base = byId.get(ref.base);
  if (base === undefined) throw new Error(`no posting ${ref.base}`);
  const random = seeded(ref.seed);
  const id = `syn-${ref.recipe}-${ref.base}-${ref.seed}`;
  const moved = { ...base, id, data_source: "linkedin", job_url: `https://jobs.example.com/view/${ref.seed}`, publish_time: later(base.publish_time, 3) };
  switch (ref.recipe) {
    case "other-source":
      return moved;
    case "tracking-url":
      return { ...moved, data_source: "indeed", job_url: `${base.job_url}${base.job_url.includes("?") ? "&" : "?"}utm_source=newsletter&utm_medium=email&gclid=${ref.seed}` };
    case "agency":
      return { ...moved, data_source: "agency-feed", company_name: null, job_title: `${base.job_title ?? ""} (m/f/d)`.trim(), job_description: `Our client is hiring. ${base.job_description}` };
    case "edited":
      return { ...moved, data_source: "glassdoor", job_description: edited(base.job_description, random) };
    case "agency-edited":
      return { ...moved, data_source: "agency-feed", company_name: null, city: null, job_description: edited(base.job_description, random) };
    case "other-role":
    case "agency-other-text": {
      const other = byId.get(ref.other ?? "");
      if (other === undefined) throw new Error(`no posting ${ref.other}`);
      return ref.recipe === "other-role"
        ? { ...moved, job_title: other.job_title, job_description: other.job_description }
        : { ...moved, data_source: "agency-feed", company_name: null, job_description: other.job_description };
    }
  }
}

// --- internal ---

/** A sentence dropped (of several), about one word in 25 changed, spacing doubled here and there. */
function edited(text: string, random: () => number): string {
  const sentences = text.split(/(?<=[.!?])\s+/);
  if (sentences.length > 3) sentences.splice(1 + Math.floor(random() * (sentences.length - 2)), 1);
  return sentences
    .join(" ")
    .split(" ")
    .map((word) => (random() < 0.04 ? (random() < 0.5 ? word.toUpperCase() : "great") : random() < 0.03 ? `${word} ` : word))
    .join(" ");
}

function later(time: string, days: number): string {
  const ms = Date.parse(`${time.replace(" ", "T")}Z`) + days * 86_400_000;
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

/** The seeded generator the demo data uses (mulberry32): the same seed, the same copies. */
export const seeded = createRng;
