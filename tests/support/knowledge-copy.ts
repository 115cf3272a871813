import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { KNOWLEDGE_DIR, loadKnowledge } from "../../server/knowledge/knowledge.ts";
import { tempDir } from "./helpers.ts";

/** Temp copies of the knowledge folder, for the knowledge tests: real files, each rule broken in one. */
const dirs: string[] = [];

/** A copy of the default knowledge folder (its data files), each file of `edits` (relative to the folder) changed in place. */
export function copyWith(edits: Record<string, (json: any) => void> = {}): string {
  const dir = tempDir("jobsearch-knowledge-");
  dirs.push(dir);
  cpSync(KNOWLEDGE_DIR, dir, { recursive: true, filter: (path) => !path.endsWith(".ts") });
  for (const [file, edit] of Object.entries(edits)) {
    const path = join(dir, file);
    const json = JSON.parse(readFileSync(path, "utf8"));
    edit(json);
    writeFileSync(path, `${JSON.stringify(json, null, 2)}\n`);
  }
  return dir;
}

/** The message loadKnowledge throws for `dir` ("" when it loads). */
export function loadError(dir: string): string {
  try {
    loadKnowledge(dir);
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}

/** Removes the copies made so far (a test file's afterAll). */
export function removeCopies(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
