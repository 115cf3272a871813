import type { SearchFilters } from "../../shared/search.ts";
import { MODIFIER_WORDS, OCCUPATIONS } from "../knowledge/knowledge.ts";
import { fold, hasCjk } from "../relevance/text.ts";
import type { Facets } from "../store/store.ts";
import type { TermStats } from "../store/term-stats.ts";
import { findConditions } from "./conditions.ts";
import { findDates } from "./dates.ts";
import { withoutOverlaps, type Finding } from "./finding.ts";
import { findPlaces, placeIndex } from "./places.ts";
import { correctSpelling } from "./spelling.ts";

/*
 * What a person typed, understood: misspellings corrected, then the conditions stated in words
 * (places, remote, visa, seniority, employment type, time) read as filters, and the rest searched.
 * Explicit filters always win: a condition whose filter the request sets is not applied (a hint
 * says so). Pure and synchronous; the caller supplies the data's places and term statistics and the clock.
 */

export interface Understanding {
  /** The words to search: the (corrected) query without the conditions read as filters. */
  text: string;
  /** The corrected query, or null when nothing was corrected. */
  corrected: string | null;
  /** Filters read from the query, as a POST body would give them (`{city: "Berlin", remote: true}`). */
  filters: Record<string, unknown>;
  hints: string[];
}

export interface UnderstandContext {
  facets: Facets;
  stats: TermStats | undefined;
  now: Date;
}

export function understandQuery(query: string, explicit: SearchFilters, context: UnderstandContext): Understanding {
  // Chinese and other CJK text has no spaces to find words between; it is searched as typed.
  if (hasCjk(query)) return { text: query, corrected: null, filters: {}, hints: [] };
  const correction = correctSpelling(query, context.stats, WRITTEN_JOB_WORDS);
  const text = correction.text;
  const docs = (word: string) => context.stats?.df[fold(word)] ?? 0;
  const findings = withoutOverlaps([
    ...findDates(text, context.now),
    ...findConditions(text),
    ...findPlaces(text, placeIndex(context.facets), docs, (word) => JOB_WORDS.has(fold(word))),
  ]).filter((f) => f.confident);

  const filters: Record<string, unknown> = {};
  const hints: string[] = [];
  const removed: Finding[] = [];
  for (const finding of findings) {
    const names = Object.keys(finding.filters);
    const overridden = names.map((name) => explicitlySet(name, explicit)).find((name) => name !== undefined);
    if (overridden !== undefined) {
      hints.push(`"${finding.phrase}" was not applied: the request sets ${overridden}`);
      removed.push(finding);
      continue;
    }
    const clash = names.find((name) => name in filters && JSON.stringify(filters[name]) !== JSON.stringify(finding.filters[name]));
    if (clash !== undefined) {
      hints.push(`"${finding.phrase}" was not applied: the query already states ${clash}`);
      continue;
    }
    Object.assign(filters, finding.filters);
    removed.push(finding);
  }
  const rest = withoutFindings(text, removed);
  return {
    text: /[\p{L}\p{N}]/u.test(rest) ? rest : text,
    corrected: correction.changes.length > 0 ? text : null,
    filters,
    hints: [
      ...correction.changes.map(({ from, to }) => `searched for "${to}" instead of "${from}"`),
      ...hints,
    ],
  };
}

// --- internal ---

/** Words of every occupation's titles and skills and the modifier words, as written: never a place or a typo. */
const WRITTEN_JOB_WORDS = new Set(
  [...OCCUPATIONS.flatMap((o) => [...o.titles, ...o.skills]), ...MODIFIER_WORDS].flatMap((text) => text.toLowerCase().match(/[a-z][a-z0-9+#.]*/g) ?? []),
);
const JOB_WORDS = new Set([...WRITTEN_JOB_WORDS].map(fold));

/** Location filters stand for one another (a city or country or near set explicitly wins over a place read), as do since and until. */
const FAMILIES: Record<string, string[]> = {
  city: ["city", "country", "near"],
  country: ["city", "country", "near"],
  since: ["since", "until"],
  until: ["since", "until"],
};

function explicitlySet(name: string, explicit: SearchFilters): string | undefined {
  return (FAMILIES[name] ?? [name]).find((n) => (explicit as Record<string, unknown>)[n] !== undefined);
}

/** The text without the findings' words, spaces and stray punctuation tidied. */
function withoutFindings(text: string, findings: Finding[]): string {
  let out = "";
  let at = 0;
  for (const f of [...findings].sort((a, b) => a.start - b.start)) {
    out += `${text.slice(at, f.start)} `;
    at = f.end;
  }
  out += text.slice(at);
  return out.replace(/\s+([,;.])/g, "$1").replace(/(^|\s)[,;.-]+(?=\s|$)/g, " ").replace(/\s+/g, " ").trim();
}
