import type { OccupationIndex } from "./occupation-index.ts";
import { CJK_CLASS } from "../../text/fold.ts";
import { withoutGenericCjk } from "../../text/query-tokens.ts";

/**
 * Chinese titles by substring of the query's compact text; a title inside a longer matched title of another
 * occupation gives way to it. Coverage leaves out generic words outside the match ("高级", "研发", "工程师"),
 * so "高级前端研发工程师" is a full match for 前端. Returns occupation → confidence in [0.5, 1].
 */
export function matchChineseTitles(index: OccupationIndex, text: string): Map<number, number> {
  const spans: Array<{ start: number; end: number; occupation: number }> = [];
  for (const { text: title, occupation } of index.cjkTitles) {
    const start = text.indexOf(title);
    if (start >= 0) spans.push({ start, end: start + title.length, occupation });
  }
  const out = new Map<number, number>();
  for (const span of spans) {
    const inside = spans.some(
      (o) => o.occupation !== span.occupation && o.start <= span.start && o.end >= span.end && o.end - o.start > span.end - span.start,
    );
    const matched = cjkCount(text.slice(span.start, span.end));
    if (inside || matched === 0) continue;
    const rest = cjkCount(withoutGenericCjk(text.slice(0, span.start)) + withoutGenericCjk(text.slice(span.end)));
    const confidence = 0.5 + 0.5 * (matched / (matched + rest));
    out.set(span.occupation, Math.max(out.get(span.occupation) ?? 0, confidence));
  }
  return out;
}

// --- internal ---

const CJK_CHARS = new RegExp(`[${CJK_CLASS}]`, "gu");
function cjkCount(text: string): number {
  return text.match(CJK_CHARS)?.length ?? 0;
}
