export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFormat = "json" | "pretty";
export type Logger = Record<LogLevel, (message: string, fields?: Record<string, unknown>) => void>;

export interface LoggerOptions {
  /** Default `json`; `pretty` is one short human-readable line per event (see {@link formatPretty}). */
  format?: LogFormat;
  /** Pretty only: colour the level (for a terminal). */
  color?: boolean;
  /** Fields every line carries, e.g. `pid` when several server processes share one stderr. */
  base?: Record<string, unknown>;
}

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/**
 * One line per event on stderr: JSON (`time`, `level`, `msg`, then the fields) or, with
 * `format: "pretty"`, a line for people. Errors carry their stack. Fields at or below the level
 * are never formatted, so a disabled `debug` costs one comparison.
 */
export function createLogger(
  level: LogLevel = "info",
  write: (line: string) => void = (line) => process.stderr.write(line),
  options: LoggerOptions = {},
): Logger {
  const { format = "json", color = false, base } = options;
  const emit = (at: LogLevel) => (message: string, own: Record<string, unknown> = {}) => {
    if (ORDER[at] < ORDER[level]) return;
    const time = new Date();
    const fields = base ? { ...base, ...own } : own;
    write(format === "pretty" ? formatPretty(time, at, message, fields, color) : formatJson(time, at, message, fields));
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

/**
 * A server process's logger: LOG_LEVEL, LOG_FORMAT (else by whether stderr is a terminal), colour on a
 * terminal unless NO_COLOR is set; `base` fields on every line.
 */
export function serverLogger(settings: { logLevel: LogLevel; logFormat?: LogFormat | undefined }, base?: Record<string, unknown>): Logger {
  const format = defaultLogFormat(settings.logFormat);
  const color = format === "pretty" && Boolean(process.stderr.isTTY) && !process.env.NO_COLOR;
  return createLogger(settings.logLevel, undefined, { format, color, ...(base ? { base } : {}) });
}

/** `LOG_FORMAT` when set, else pretty on a terminal and JSON otherwise (files, pipes, log collectors). */
export function defaultLogFormat(configured: LogFormat | undefined, isTty = Boolean(process.stderr.isTTY)): LogFormat {
  return configured ?? (isTty ? "pretty" : "json");
}

// --- internal ---

function formatJson(time: Date, level: LogLevel, message: string, fields: Record<string, unknown>): string {
  const entry: Record<string, unknown> = { time: time.toISOString(), level, msg: message };
  for (const [key, value] of Object.entries(fields)) entry[key] = value instanceof Error ? { message: value.message, stack: stackOf(value) } : value;
  return `${JSON.stringify(entry)}\n`;
}

const LEVEL_COLORS: Record<LogLevel, string> = { debug: "\x1b[90m", info: "\x1b[36m", warn: "\x1b[33m", error: "\x1b[31m" };

/**
 * `12:00:01 INFO  POST /v1/search 200 12ms key:0123456789abcdef request_id=…` for a request line
 * (fields method, route, status, duration_ms), `12:00:01 INFO  ready url=… postings=12` otherwise;
 * an error's stack follows on its own lines.
 */
function formatPretty(time: Date, level: LogLevel, message: string, fields: Record<string, unknown>, color: boolean): string {
  const clock = time.toTimeString().slice(0, 8);
  const tag = level.toUpperCase().padEnd(5);
  const parts = [clock, color ? `${LEVEL_COLORS[level]}${tag}\x1b[0m` : tag];
  const rest = { ...fields };
  let stack = "";
  if (message === "request" && "route" in rest && "status" in rest) {
    parts.push(`${rest.method} ${rest.route} ${rest.status} ${rest.duration_ms}ms ${rest.principal ?? "-"}`);
    for (const key of ["method", "route", "status", "duration_ms", "principal"]) delete rest[key];
  } else {
    parts.push(message);
  }
  for (const [key, value] of Object.entries(rest)) {
    if (value instanceof Error) {
      parts.push(`${key}=${JSON.stringify(value.message)}`);
      stack += `\n${stackOf(value).replace(/^/gm, "    ")}`;
    } else {
      parts.push(`${key}=${typeof value === "string" && !/[\s"=]/.test(value) ? value : JSON.stringify(value)}`);
    }
  }
  return `${parts.join(" ")}${stack}\n`;
}

/** Errors from native code (LanceDB) can come without a stack: say so rather than drop it. */
function stackOf(error: Error): string {
  return error.stack ?? `${error.name}: ${error.message}\n    (no stack: thrown by native code)`;
}
