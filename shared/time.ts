const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;

/**
 * Parses `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS` (UTC; a date alone is completed to 00:00:00)
 * into epoch seconds. Returns undefined for anything else, including impossible dates
 * such as 2023-02-30 or 24:00:00.
 */
export function parseDateTime(value: string): number | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map((part) => Number(part ?? 0)) as [
    number, number, number, number, number, number,
  ];
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const d = new Date(ms);
  const roundTrips =
    d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day &&
    d.getUTCHours() === hour && d.getUTCMinutes() === minute && d.getUTCSeconds() === second;
  return roundTrips ? ms / 1000 : undefined;
}

/** Formats epoch seconds as `YYYY-MM-DD HH:MM:SS` (UTC). */
export function formatDateTime(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 19).replace("T", " ");
}
