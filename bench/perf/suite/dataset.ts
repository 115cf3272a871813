import { existsSync, lstatSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { codeFingerprint, INGEST_MODULES } from "../../relevance/fingerprint.ts";

export const ROOT = resolve(import.meta.dir, "../../..");
export const SHARED_DATA = resolve(ROOT, "../shared/data/jobs.jsonl.gz");
/** The table the service benchmarks run against (git-ignored), kept between runs. */
export const BENCH_DATA_DIR = join(ROOT, "bench/.data/bench");
/** The offline model the tests build once per machine; else one of the benchmark's own. */
export const MODELS_DIR = existsSync(join(ROOT, "tests/.cache/models"))
  ? join(ROOT, "tests/.cache/models")
  : join(ROOT, "bench/.data/models");

/** The modules whose code decides what an ingest stores (as in bench/relevance/dataset.ts). */
const BUILD_MARKER = "bench-build.json";

export interface IngestRun {
  inserted: number;
  updated: number;
  skipped: number;
  seconds: number;
  /** The CLI's own rate (postings handled per second of its ingest). */
  rate: number;
  /** Process spawn to exit, including Bun start, model load and table open. */
  wallSeconds: number;
  line: string;
}

/** Runs `bun cli/main.ts ingest FILE` into `dataDir` as a user would and parses its summary line. */
export async function runCliIngest(dataDir: string, file = SHARED_DATA): Promise<IngestRun> {
  const started = performance.now();
  const proc = Bun.spawn(["bun", join(ROOT, "cli/main.ts"), "ingest", file], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, MODELS_DIR, NO_COLOR: "1", LANCEDB_LOG: "error" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const wallSeconds = (performance.now() - started) / 1000;
  const line = stdout.trim().split("\n").findLast((l) => l.startsWith("ingested ")) ?? "";
  const m = line.match(/^ingested (\d+) new, (\d+) updated, (\d+) skipped in ([\d.]+) s \((\d+)\/s\)/);
  if (code !== 0 || !m) throw new Error(`ingest failed (exit ${code}):\n${stdout}\n${stderr}`);
  return { inserted: +m[1]!, updated: +m[2]!, skipped: +m[3]!, seconds: +m[4]!, rate: +m[5]!, wallSeconds, line };
}

/** The benchmark table's posting count when it was built by the current ingest code; undefined otherwise. */
export function benchDataCount(): number | undefined {
  const marker = join(BENCH_DATA_DIR, BUILD_MARKER);
  if (!existsSync(marker)) return undefined;
  const built = JSON.parse(readFileSync(marker, "utf8")) as { fingerprint: string; postings: number };
  return built.fingerprint === fingerprint() ? built.postings : undefined;
}

/** Makes `dir` (a finished full ingest) the benchmark table, replacing an outdated one (never a linked one). */
export function adoptBenchData(dir: string, postings: number): void {
  if (isLinked()) return;
  rmSync(BENCH_DATA_DIR, { recursive: true, force: true });
  renameSync(dir, BENCH_DATA_DIR);
  writeFileSync(join(BENCH_DATA_DIR, BUILD_MARKER), `${JSON.stringify({ fingerprint: fingerprint(), postings })}\n`);
}

/** Builds the benchmark table with the CLI when it is missing or outdated (the --skip-ingest path). */
export async function ensureBenchData(): Promise<number> {
  const existing = benchDataCount();
  if (existing !== undefined) return existing;
  if (isLinked()) {
    // Another checkout's table, linked in to be read: used as it is, whatever code built it.
    const built = JSON.parse(readFileSync(join(BENCH_DATA_DIR, BUILD_MARKER), "utf8")) as { postings: number };
    console.error(`${BENCH_DATA_DIR} is a link (another checkout's table): used as it is, never rebuilt here`);
    return built.postings;
  }
  const building = `${BENCH_DATA_DIR}-building`;
  rmSync(building, { recursive: true, force: true });
  console.error(`building ${BENCH_DATA_DIR} from ${SHARED_DATA} (one time, ~30 s)`);
  const run = await runCliIngest(building);
  adoptBenchData(building, run.inserted + run.updated);
  return run.inserted + run.updated;
}

// --- internal ---

function isLinked(): boolean {
  return lstatSync(BENCH_DATA_DIR, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
}

function fingerprint(): string {
  return codeFingerprint(ROOT, INGEST_MODULES, [Bun.env.EMBEDDING_MODEL ?? "static"]);
}
