/**
 * A progress bar with rate and ETA on a TTY; silent elsewhere (logs and pipes get only the
 * final summary line).
 */
export function createProgress(stream: NodeJS.WriteStream = process.stderr) {
  const started = performance.now();
  const active = stream.isTTY === true;
  return {
    update(done: number, total: number) {
      if (!active || total === 0) return;
      const seconds = (performance.now() - started) / 1000;
      const rate = seconds > 0 ? done / seconds : 0;
      const eta = rate > 0 ? Math.ceil((total - done) / rate) : 0;
      const width = 30;
      const filled = Math.round((done / total) * width);
      const bar = `${"#".repeat(filled)}${".".repeat(width - filled)}`;
      const percent = Math.floor((done / total) * 100);
      stream.write(`\r[${bar}] ${done}/${total} ${percent}% ${Math.round(rate)}/s ETA ${eta}s `);
    },
    finish() {
      if (active) stream.write("\n");
    },
  };
}
