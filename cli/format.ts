/**
 * Terminal output: whether to color, how wide the terminal is, and aligned tables that fit it.
 * Widths are display widths (Bun.stringWidth), so CJK and emoji cells stay aligned.
 */

type Env = Record<string, string | undefined>;

/**
 * Colors only when stdout is a terminal, and never with NO_COLOR set (https://no-color.org);
 * FORCE_COLOR (any value but 0/false) turns them on elsewhere, e.g. through a pipe to `less -R`.
 */
export function colorEnabled(stream: { isTTY?: boolean } = process.stdout, env: Env = Bun.env): boolean {
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  if (env.TERM === "dumb") return false;
  return stream.isTTY === true;
}

/** The terminal's width; through a pipe COLUMNS when set, else 100. */
export function terminalWidth(stream: { isTTY?: boolean; columns?: number } = process.stdout, env: Env = Bun.env): number {
  if (stream.isTTY && stream.columns && stream.columns > 0) return stream.columns;
  const columns = Number(env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : DEFAULT_WIDTH;
}

export const DEFAULT_WIDTH = 100;

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

/** ANSI styles, or identity functions when `enabled` is false. */
export function createStyle(enabled: boolean): Style {
  const sgr = (open: number, close: number) => (text: string) => (enabled && text !== "" ? `\x1b[${open}m${text}\x1b[${close}m` : text);
  return { bold: sgr(1, 22), dim: sgr(2, 22), green: sgr(32, 39), yellow: sgr(33, 39), cyan: sgr(36, 39) };
}

/** Display width in terminal cells (CJK and most emoji take two). */
export const displayWidth = (text: string): number => Bun.stringWidth(text);

/**
 * Text made safe for one table cell: control characters (newlines, tabs, escape sequences a
 * posting might carry) become spaces, runs of spaces one.
 */
export function cellText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").replace(/ {2,}/g, " ").trim();
}

/** Cuts `text` to at most `max` cells, ending in "…" when cut; never splits a character. */
export function truncate(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  if (max <= 0) return "";
  let out = "";
  let width = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = displayWidth(segment);
    if (width + w > max - 1) break;
    out += segment;
    width += w;
  }
  return `${out}…`;
}

export interface Column {
  header: string;
  align?: "left" | "right";
  /** Whether the column gives up width when the table is wider than the terminal (default false). */
  shrink?: boolean;
  /** Narrowest it shrinks to (default: its header's width, at least 6). */
  min?: number;
  /** How much width it keeps relative to the other shrinking columns (default 1; 2 keeps about twice as much). */
  weight?: number;
  /** Applied after truncation and before padding, so colors never change the alignment. */
  style?: (text: string, row: number) => string;
}

export interface TableOptions {
  /** Total width to fit in (default: no limit). */
  width?: number;
  /** Header style (default: none). */
  headerStyle?: (text: string) => string;
}

/**
 * Columns separated by two spaces, each as wide as its widest cell. When that is wider than
 * `width`, shrinkable columns give up one cell at a time, the widest (for its weight) first, down to
 * their minimum; cut cells end in "…". No trailing spaces.
 */
export function renderTable(columns: Column[], rows: string[][], options: TableOptions = {}): string {
  const cells = rows.map((row) => columns.map((_, c) => cellText(row[c] ?? "")));
  const widths = columns.map((column, c) => Math.max(displayWidth(column.header), ...cells.map((row) => displayWidth(row[c]!))));
  if (options.width !== undefined) fit(columns, widths, options.width);
  const headerStyle = options.headerStyle ?? ((text: string) => text);
  const line = (texts: string[], styleOf: (text: string, c: number) => string) => {
    const last = texts.length - 1;
    return texts
      .map((text, c) => {
        const cut = truncate(text, widths[c]!);
        const padding = " ".repeat(widths[c]! - displayWidth(cut));
        const styled = styleOf(cut, c);
        if (columns[c]!.align === "right") return padding + styled;
        return c === last ? styled : styled + padding;
      })
      .join(GAP);
  };
  return [
    line(columns.map((column) => column.header), (text) => headerStyle(text)),
    ...cells.map((row, r) => line(row, (text, c) => columns[c]!.style?.(text, r) ?? text)),
  ]
    .map((text) => text.trimEnd())
    .join("\n");
}

/** Formats a byte count as B, KB, MB or GB (powers of 1024, one decimal above bytes). */
export function formatBytes(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** "2026-06-01T12:34:56.789Z" → "2026-06-01 12:34" (UTC); null → "never". */
export function shortTime(iso: string | null): string {
  return iso === null ? "never" : iso.slice(0, 16).replace("T", " ");
}

// --- internal ---

const GAP = "  ";
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function fit(columns: Column[], widths: number[], total: number): void {
  const mins = columns.map((column) => column.min ?? Math.max(displayWidth(column.header), 6));
  let excess = widths.reduce((sum, w) => sum + w, 0) + GAP.length * (columns.length - 1) - total;
  while (excess > 0) {
    let widest = -1;
    const share = (c: number) => widths[c]! / (columns[c]!.weight ?? 1);
    for (let c = 0; c < columns.length; c++) {
      if (!columns[c]!.shrink || widths[c]! <= mins[c]!) continue;
      if (widest === -1 || share(c) > share(widest)) widest = c;
    }
    if (widest === -1) return;
    widths[widest]!--;
    excess--;
  }
}

/**
 * An informational line on stderr, in the terminal's own color: Bun prints console.error in red on
 * a terminal, and red is for errors.
 */
export function note(message: string): void {
  process.stderr.write(`${message}\n`);
}
