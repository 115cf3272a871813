import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { ROOT } from "../support/helpers.ts";

/*
 * The code's shape, checked on every run (`bun test tests/unit/structure.test.ts`); docs/architecture.md draws it. Rooms are the folders of
 * server/ (and its top-level files), cli/ and shared/; FLOORS orders them top to bottom, and an import
 * may only go to a lower floor or stay in its room. Also: no import cycle that crosses folders (data
 * files included), one module that folds place names and one that maps countries, no code, test or bench
 * file over 300 lines, no folder of them over 15 files. Data (the knowledge base, the web
 * page's assets) is exempt from the size rules.
 */
const FLOORS: string[][] = [
  ["cli", "server/web"],
  ["server/main.ts", "server/worker.ts"],
  ["server/start.ts"],
  ["server/app.ts", "server/cluster", "server/demo"],
  ["server/routes", "server/mcp"],
  ["server/openapi", "server/ops", "server/backup", "server/match", "server/saved"],
  ["server/search"],
  ["server/understand", "server/rank", "server/ingest"],
  ["server/auth", "server/cache"],
  ["server/config.ts"],
  ["server/memory"],
  ["server/store"],
  ["server/places", "server/embedding", "server/salary"],
  ["server/text"],
  ["server/knowledge"],
  ["server/http", "server/redis.ts", "server/sqlite.ts", "server/shutdown.ts"],
  ["server/log.ts", "server/timeout.ts"],
  ["shared"],
  ["data", "package.json"],
];
const CODE = ["server", "cli", "shared"];
/** Checked for size as code is: the tests and the benchmarks. */
const TESTS = ["tests", "bench"];
const DATA_FOLDERS = ["server/knowledge", "server/web"];
/** Git-ignored folders the tests write (the model cache, the reports). */
const GENERATED = ["tests/.cache", "tests/artifacts", "bench/.data", "bench/results"];
const MAX_LINES = 300;
const MAX_FILES = 15;
/** Where words and names are folded (accents, case): words in text/, place names in places/names.ts. */
const FOLDS_NAMES = ["server/places/names.ts", "server/text/"];
/** Where names of countries are listed and resolved to codes. */
const MAPS_COUNTRIES = ["server/places/countries.ts", "server/knowledge/"];
/** Where a country code is shown by its name in the reader's language (the platform's Intl, no table): the page and the line both interfaces print. */
const SHOWS_COUNTRY_NAMES = ["server/web/", "shared/understood.ts"];

const code = CODE.flatMap((folder) => walk(join(ROOT, folder))).map((path) => relative(ROOT, path));
const tests = TESTS.flatMap((folder) => walk(join(ROOT, folder))).map((path) => relative(ROOT, path));
const isData = (file: string) => DATA_FOLDERS.some((folder) => file.startsWith(`${folder}/`)) || file.includes("/fixtures/");
const isSource = (file: string) => /\.(ts|js)$/.test(file);

test("no import cycle crosses folders", () => {
  const graph = new Map(code.filter(isSource).map((file) => [file, imports(file)]));
  const crossing = stronglyConnected(graph).filter((group) => new Set(group.map((file) => dirname(file))).size > 1);
  expect(crossing).toEqual([]);
});

test("every import goes to a room on a lower floor, or stays in its room", () => {
  const floor = (file: string) => FLOORS.findIndex((rooms) => rooms.includes(roomOf(file)));
  const unplaced = [...new Set(code.filter(isSource).map(roomOf))].filter((room) => floor(room) < 0);
  expect(unplaced).toEqual([]);
  const upward = code
    .filter(isSource)
    .flatMap((file) => imports(file).map((target) => [file, target] as const))
    .filter(([file, target]) => roomOf(file) !== roomOf(target) && floor(target) <= floor(file))
    .map(([file, target]) => `${file} → ${target}`);
  expect(upward).toEqual([]);
});

test("one module folds place names and one maps countries, whatever their names", () => {
  const sources = code.filter(isSource).map((file) => [file, readFileSync(join(ROOT, file), "utf8")] as const);
  const folding = sources.filter(([, text]) => /\\p\{M\}/.test(text)).map(([file]) => file);
  expect(folding.filter((file) => !FOLDS_NAMES.some((allowed) => file.startsWith(allowed)))).toEqual([]);
  const countries = sources.filter(([, text]) => listsCountries(text)).map(([file]) => file);
  expect(countries.filter((file) => !MAPS_COUNTRIES.some((allowed) => file.startsWith(allowed)))).toEqual([]);
  const regionNames = sources.filter(([, text]) => /Intl\.DisplayNames\([^)]*region/.test(text)).map(([file]) => file);
  expect(regionNames.filter((file) => !SHOWS_COUNTRY_NAMES.some((allowed) => file.startsWith(allowed)))).toEqual([]);
});

test(`no code, test or bench file is longer than ${MAX_LINES} lines`, () => {
  const long = [...code, ...tests]
    .filter((file) => isSource(file) && !isData(file))
    .map((file) => [file, readFileSync(join(ROOT, file), "utf8").split("\n").length] as const)
    .filter(([, lines]) => lines > MAX_LINES);
  expect(long).toEqual([]);
});

test(`no folder of code, tests or benches holds more than ${MAX_FILES} files`, () => {
  const counts = new Map<string, number>();
  for (const file of [...code, ...tests]) if (!isData(file)) counts.set(dirname(file), (counts.get(dirname(file)) ?? 0) + 1);
  expect([...counts].filter(([, count]) => count > MAX_FILES)).toEqual([]);
});

// --- helpers ---

/** Every file below `dir`, the generated folders left out. */
function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (GENERATED.includes(relative(ROOT, path))) return [];
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** A file's room: its folder under server/ (or the file itself at server/'s top), else its top folder. */
function roomOf(file: string): string {
  const [top, second, third] = file.split("/");
  if (top === "server" && third !== undefined) return `server/${second}`;
  return top === "server" ? file : top!;
}

/** The project files `file` imports, code and data alike (relative specifiers only). */
function imports(file: string): string[] {
  const source = readFileSync(join(ROOT, file), "utf8");
  return [...source.matchAll(/(?:^|\n)\s*(?:import|export)[^"'\n]*?from\s*["'](\.{1,2}\/[^"']+)["']/g)].map(([, spec]) => normalize(join(dirname(file), spec!)));
}

/** Holds a table naming several countries (their names or other names, in any format). */
function listsCountries(text: string): boolean {
  const named = ["germany", "france", "netherlands", "switzerland", "united kingdom", "czech", "holland", "usa"].filter((name) => new RegExp(`["'\`;:]\\s*${name}\\b`, "i").test(text));
  return named.length >= 3;
}

/** Tarjan's strongly connected components with more than one file. */
function stronglyConnected(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) groups.push(group);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}
