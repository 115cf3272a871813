import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { ROOT } from "../support/helpers.ts";

/**
 * The code's shape, checked on every run (`bun test tests/unit/structure.test.ts`): no import cycle
 * that crosses folders, no code or test file over 300 lines, no code or test folder with more than 15
 * files. Data (the knowledge base, the web page's assets) is exempt from the size rules, and so are
 * the git-ignored folders the tests write (the model cache, the reports).
 */
const CODE = ["server", "cli", "shared"];
const DATA_FOLDERS = ["server/relevance/knowledge", "server/web"];
const GENERATED = ["tests/.cache", "tests/artifacts"];
const MAX_LINES = 300;
const MAX_FILES = 15;

const files = CODE.flatMap((folder) => walk(join(ROOT, folder))).map((path) => relative(ROOT, path));
const isData = (file: string) => DATA_FOLDERS.some((folder) => file.startsWith(`${folder}/`));
const testFiles = walk(join(ROOT, "tests"))
  .map((path) => relative(ROOT, path))
  .filter((file) => !GENERATED.some((folder) => file.startsWith(`${folder}/`)));

test("no import cycle crosses folders", () => {
  const graph = new Map(files.filter((file) => file.endsWith(".ts")).map((file) => [file, imports(file)]));
  const crossing = stronglyConnected(graph).filter((group) => new Set(group.map((file) => dirname(file))).size > 1);
  expect(crossing).toEqual([]);
});

test(`no code file is longer than ${MAX_LINES} lines`, () => {
  const long = files
    .filter((file) => /\.(ts|js)$/.test(file) && !isData(file))
    .map((file) => [file, readFileSync(join(ROOT, file), "utf8").split("\n").length] as const)
    .filter(([, lines]) => lines > MAX_LINES);
  expect(long).toEqual([]);
});

test(`no code folder holds more than ${MAX_FILES} files`, () => {
  const counts = new Map<string, number>();
  for (const file of files) if (!isData(file)) counts.set(dirname(file), (counts.get(dirname(file)) ?? 0) + 1);
  expect([...counts].filter(([, count]) => count > MAX_FILES)).toEqual([]);
});

test(`no test file is longer than ${MAX_LINES} lines`, () => {
  const long = testFiles
    .filter((file) => /\.(ts|js)$/.test(file))
    .map((file) => [file, readFileSync(join(ROOT, file), "utf8").split("\n").length] as const)
    .filter(([, lines]) => lines > MAX_LINES);
  expect(long).toEqual([]);
});

test(`no test folder holds more than ${MAX_FILES} files`, () => {
  const counts = new Map<string, number>();
  for (const file of testFiles) counts.set(dirname(file), (counts.get(dirname(file)) ?? 0) + 1);
  expect([...counts].filter(([, count]) => count > MAX_FILES)).toEqual([]);
});

// --- helpers ---

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** The project files `file` imports (relative specifiers only). */
function imports(file: string): string[] {
  const source = readFileSync(join(ROOT, file), "utf8");
  return [...source.matchAll(/(?:^|\n)\s*(?:import|export)[^"'\n]*?from\s*["'](\.{1,2}\/[^"']+)["']/g)]
    .map(([, spec]) => normalize(join(dirname(file), spec!)))
    .filter((target) => target.endsWith(".ts"));
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
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}
