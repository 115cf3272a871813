/**
 * A progress bar with rate and ETA on a TTY; silent elsewhere (logs and pipes get only the
 * final summary line). Redraws at most every 100 ms, and always for the last batch.
 */
export function createProgress(stream: NodeJS.WriteStream = process.stderr) {
  const started = performance.now();
  const active = stream.isTTY === true;
  let drawnAt = -Infinity;
  let drawn = false;
  return {
    update(done: number, total: number) {
      if (!active || total === 0) return;
      const now = performance.now();
      if (done < total && now - drawnAt < REDRAW_MS) return;
      drawnAt = now;
      drawn = true;
      stream.write(`\r${renderProgress(done, total, (now - started) / 1000, stream.columns || 80)}\x1b[K`);
    },
    finish() {
      if (active && drawn) stream.write("\n");
      drawn = false;
    },
  };
}

/**
 * A step of unknown length: `label… 12s`, redrawn every second on a TTY; elsewhere the label once.
 */
export function createTicker(label: string, stream: NodeJS.WriteStream = process.stderr) {
  const started = performance.now();
  const draw = () => stream.write(`\r${label}… ${formatDuration((performance.now() - started) / 1000)}\x1b[K`);
  if (stream.isTTY !== true) stream.write(`${label}…\n`);
  const timer = stream.isTTY === true ? setInterval(draw, 1000) : undefined;
  if (timer) draw();
  let finished = false;
  return {
    finish() {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      if (timer) {
        draw();
        stream.write("\n");
      }
    },
  };
}

/** One progress line, at most `columns` wide: `[####....] 1200/5000 24% 850/s ETA 4s`. */
export function renderProgress(done: number, total: number, seconds: number, columns = 80): string {
  const rate = seconds > 0 ? done / seconds : 0;
  const eta = done >= total ? "0s" : rate > 0 ? formatDuration((total - done) / rate) : "--";
  const percent = Math.floor((done / total) * 100);
  const text = `${done}/${total} ${percent}% ${Math.round(rate)}/s ETA ${eta}`;
  // The bar takes what is left of the line (at most 30 cells); the cursor keeps the last column.
  const width = Math.min(30, columns - text.length - 4);
  if (width < 5) return text.slice(0, Math.max(columns - 1, 0));
  const filled = Math.min(width, Math.round((done / total) * width));
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${text}`;
}

/** 42 → "42s", 185 → "3m05s", 3720 → "1h02m". */
export function formatDuration(seconds: number): string {
  const s = Math.ceil(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

// --- internal ---

const REDRAW_MS = 100;
