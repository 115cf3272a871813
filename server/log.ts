export type LogLevel = "debug" | "info" | "warn" | "error";
export type Logger = Record<LogLevel, (message: string, fields?: Record<string, unknown>) => void>;

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** JSON lines on stderr, one per event; errors carry their stack. */
export function createLogger(level: LogLevel = "info", write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const emit = (at: LogLevel) => (message: string, fields: Record<string, unknown> = {}) => {
    if (ORDER[at] < ORDER[level]) return;
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level: at, msg: message };
    for (const [key, value] of Object.entries(fields)) {
      // Errors from native code (LanceDB) can come without a stack: say so rather than drop the field.
      entry[key] = value instanceof Error ? { message: value.message, stack: value.stack ?? `${value.name}: ${value.message}\n    (no stack: thrown by native code)` } : value;
    }
    write(`${JSON.stringify(entry)}\n`);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}
