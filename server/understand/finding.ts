/** A condition read from the query: where it stands, the words, and the filters it means (wire shapes, as a POST body gives them). */
export interface Finding {
  start: number;
  end: number;
  phrase: string;
  filters: Record<string, unknown>;
  /** Unsure readings stay words of the search (a ranking hint) and never filter. */
  confident: boolean;
  /** Why a reading is not applied though sure (a region where the data has no city): its words stay searched, a hint says why. */
  unapplied?: string;
}

/** Findings of every rule, earliest first, an overlapping later or shorter one dropped. */
export function withoutOverlaps(findings: Finding[]): Finding[] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const kept: Finding[] = [];
  for (const finding of sorted) {
    if (kept.some((k) => finding.start < k.end && finding.end > k.start)) continue;
    kept.push(finding);
  }
  return kept;
}
