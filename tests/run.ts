/**
 * The project's test command: runs `bun test` with a JUnit report and prints the closing line
 * `N passed, N failed` that CI reads (Bun's own summary goes to stderr in another form).
 * Exits non-zero when anything failed or no test ran.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const report = join(root, "tests/artifacts/junit.xml");
mkdirSync(join(root, "tests/artifacts"), { recursive: true });
// A report left by an earlier run must not be counted when this one writes none (bun test failing to start).
rmSync(report, { force: true });

const proc = Bun.spawn(["bun", "test", "--timeout=120000", "--reporter=junit", `--reporter-outfile=${report}`, ...process.argv.slice(2)], {
  cwd: root,
  stdio: ["inherit", "inherit", "inherit"],
});
const exitCode = await proc.exited;

const xml = await Bun.file(report).text().catch(() => "");
const suite = /<testsuites\b[^>]*>/.exec(xml)?.[0] ?? "";
const count = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite)?.[1] ?? 0);
const total = count("tests");
const failed = count("failures") + count("errors");
const skipped = count("skipped");
const passed = total - failed - skipped;

console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`);
process.exit(exitCode !== 0 || failed > 0 || total === 0 ? 1 : 0);
