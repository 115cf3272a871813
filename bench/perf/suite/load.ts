import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface LoadTarget {
  url: string;
  headers: Record<string, string>;
  /**
   * Request bodies (one line each). wrk's threads start spread evenly over them and each walks them
   * in order, so a run sends no body twice until it sent every one.
   */
  bodies: string[];
}

export interface LoadResult {
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers whose status was not 200. */
  non200: number;
  /** Connect, read, write errors and timeouts (no answer at all). */
  socketErrors: number;
  /** Largest server RSS (MB) seen while the load ran. */
  peakRssMb?: number;
}

/** Installs wrk from Debian when it is missing; false (with a message) when that fails. */
export function ensureWrk(): boolean {
  if (Bun.which("wrk")) return true;
  console.error("wrk is missing: installing it with apt-get (Debian package wrk)");
  const install = () => Bun.spawnSync(["apt-get", "install", "-y", "wrk"], { stdout: "ignore", stderr: "pipe" });
  let result = install();
  if (result.exitCode !== 0) {
    Bun.spawnSync(["apt-get", "update"], { stdout: "ignore", stderr: "ignore" });
    result = install();
  }
  if (result.exitCode === 0 && Bun.which("wrk")) return true;
  console.error(`could not install wrk (apt-get install -y wrk failed: ${result.stderr.toString().trim().split("\n").pop()}); the HTTP rows are left out.`);
  return false;
}

/** Drives POST `target.url` with wrk at `connections` for `seconds`, sampling the server's RSS. */
export async function runWrk(target: LoadTarget, connections: number, seconds: number, rss?: () => number): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), "jobsearch-wrk-"));
  const script = join(dir, "bench.lua");
  const bodies = join(dir, "bodies.txt");
  const threads = Math.min(connections, 2);
  if (target.bodies.some((body) => body.includes("\n"))) throw new Error("a request body spans lines");
  writeFileSync(bodies, `${target.bodies.join("\n")}\n`);
  writeFileSync(script, luaScript(target, bodies, threads));
  let peakRssMb: number | undefined;
  const sampler = rss ? setInterval(() => (peakRssMb = Math.max(peakRssMb ?? 0, rss())), 250) : undefined;
  try {
    const proc = Bun.spawn(
      ["wrk", "-t", String(threads), "-c", String(connections), "-d", `${seconds}s`, "--timeout", "10s", "-s", script, target.url],
      { stdout: "pipe", stderr: "pipe" },
    );
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const line = stdout.split("\n").find((l) => l.startsWith("BENCH "));
    if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}):\n${stdout}\n${stderr}`);
    const r = JSON.parse(line.slice(6)) as Record<string, number>;
    const duration = r.duration_us! / 1e6;
    return {
      connections,
      seconds: duration,
      requests: r.requests!,
      rps: r.requests! / duration,
      p50: r.p50_us! / 1000,
      p99: r.p99_us! / 1000,
      max: r.max_us! / 1000,
      non200: r.non200!,
      socketErrors: r.connect! + r.read! + r.write! + r.timeout!,
      ...(peakRssMb !== undefined ? { peakRssMb } : {}),
    };
  } finally {
    if (sampler) clearInterval(sampler);
    rmSync(dir, { recursive: true, force: true });
  }
}

// --- internal ---

/** wrk script: pre-formatted POSTs read from `bodiesFile`, each thread walking them in order from its own start; non-200 counted. */
function luaScript(target: LoadTarget, bodiesFile: string, threadCount: number): string {
  const { pathname, search } = new URL(target.url);
  const lua = (text: string) => `[==[${text}]==]`;
  const headers = Object.entries(target.headers).map(([k, v]) => `[ ${lua(k)} ] = ${lua(v)}`).join(", ");
  return `
local headers = { ${headers} }
local path = ${lua(pathname + search)}
local threads = {}
local created = 0

function setup(thread)
  thread:set("index", created)
  created = created + 1
  table.insert(threads, thread)
end

local requests = {}
local counter = 0
non200 = 0

function init(args)
  for body in io.lines(${lua(bodiesFile)}) do requests[#requests + 1] = wrk.format("POST", path, headers, body) end
  counter = math.floor((index or 0) * #requests / ${threadCount})
end

function request()
  local r = requests[(counter % #requests) + 1]
  counter = counter + 1
  return r
end

function response(status, headers, body)
  if status ~= 200 then non200 = non200 + 1 end
end

function done(summary, latency, requests)
  local bad = 0
  for _, thread in ipairs(threads) do bad = bad + (thread:get("non200") or 0) end
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests":%d,"duration_us":%d,"non200":%d,"p50_us":%.0f,"p99_us":%.0f,"max_us":%.0f,"connect":%d,"read":%d,"write":%d,"timeout":%d}\\n',
    summary.requests, summary.duration, bad, latency:percentile(50), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.timeout))
end
`;
}
