/*
 * What the tags and remote filters compare with (stored `tag_keys`): the posting's tags lowercased,
 * plus `visa-sponsorship` when its description offers sponsorship in words ("we sponsor H-1B visas",
 * "visa sponsorship available") and does not deny it ("no visa sponsorship", "unable to sponsor").
 */

export const VISA_TAG = "visa-sponsorship";

export function filterKeys(tags: string[], description: string): string[] {
  const keys = tags.map((tag) => tag.toLowerCase());
  if (!keys.includes(VISA_TAG) && offersSponsorship(description)) keys.push(VISA_TAG);
  return keys;
}

// --- internal ---

const OFFER = /\b(?:visa\s+sponsorship|sponsor(?:s|ing)?\s+(?:your\s+|a\s+|work\s+|h-?1b\s+)?visas?|h-?1b\s+(?:visa\s+)?(?:sponsorship|transfers?))\b/gi;
/** A denial shortly before the offer's words: "no", "not", "unable to", "cannot", "does not"… */
const DENIAL = /\b(?:no|not|unable|cannot|can't|can not|won't|don't|doesn't|without|nor|isn't|aren't|never)\b[^.;!?\n]{0,40}$/i;

function offersSponsorship(description: string): boolean {
  for (const match of description.matchAll(OFFER)) {
    if (!DENIAL.test(description.slice(Math.max(0, match.index - 60), match.index))) return true;
  }
  return false;
}
