import { Database, type Statement } from "bun:sqlite";
import type { Corpus } from "./corpus.ts";
import type { Answer, PeerRequest } from "./serve.ts";

/**
 * Plain keyword search in SQLite FTS5 (in memory): title and description indexed with the unicode61
 * tokenizer, any of the query's words matching (OR), ordered by bm25() with the title weighted 3×;
 * the filters are WHERE clauses on indexed columns of a side table. No vectors, no query understanding;
 * CJK text is not segmented (a run of Chinese characters is one token).
 */
export function ftsPeer(corpus: Corpus): { answer: Answer; buildSeconds: number; close(): void } {
  const started = performance.now();
  const db = new Database(":memory:");
  db.run("CREATE VIRTUAL TABLE docs USING fts5(title, description, tokenize = 'unicode61 remove_diacritics 2')");
  db.run("CREATE TABLE meta (row INTEGER PRIMARY KEY, city TEXT, country TEXT, source TEXT, publish_ts REAL)");
  const insertDoc = db.prepare("INSERT INTO docs (rowid, title, description) VALUES (?, ?, ?)");
  const insertMeta = db.prepare("INSERT INTO meta (row, city, country, source, publish_ts) VALUES (?, ?, ?, ?, ?)");
  db.transaction(() => {
    for (let row = 0; row < corpus.ids.length; row++) {
      insertDoc.run(row, corpus.title[row]!, corpus.description[row]!);
      insertMeta.run(row, corpus.city[row] ?? null, corpus.country[row] ?? null, corpus.source[row]!, corpus.publishTs[row]!);
    }
  })();
  for (const column of ["city", "country", "source", "publish_ts"]) db.run(`CREATE INDEX meta_${column} ON meta (${column})`);
  db.run("INSERT INTO docs (docs) VALUES ('optimize')");
  const buildSeconds = (performance.now() - started) / 1000;

  const statements = new Map<string, Statement>();
  const answer: Answer = (request) => {
    const match = matchExpression(request.q);
    if (match === undefined) return [];
    const { sql, params } = whereClauses(request);
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(
        `SELECT docs.rowid AS row FROM docs JOIN meta ON meta.row = docs.rowid WHERE docs MATCH ?${sql} ORDER BY bm25(docs, 3.0, 1.0) LIMIT ? OFFSET ?`,
      );
      statements.set(sql, statement);
    }
    const rows = statement.all(match, ...params, request.topK, request.offset) as Array<{ row: number }>;
    return rows.map((r) => r.row);
  };
  return { answer, buildSeconds, close: () => db.close() };
}

// --- internal ---

/** The query's words, each quoted (so none is read as an FTS5 operator), any of them matching; undefined when it has none. */
function matchExpression(q: string): string | undefined {
  const words = [...new Set(q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 16);
  return words.length === 0 ? undefined : words.map((word) => `"${word}"`).join(" OR ");
}

function whereClauses(r: PeerRequest): { sql: string; params: Array<string | number> } {
  let sql = "";
  const params: Array<string | number> = [];
  const add = (clause: string, value: string | number | undefined) => {
    if (value === undefined) return;
    sql += ` AND ${clause}`;
    params.push(value);
  };
  add("meta.city = ?", r.city);
  add("meta.country = ?", r.country);
  add("meta.source = ?", r.source);
  add("meta.publish_ts > ?", r.since);
  add("meta.publish_ts < ?", r.until);
  return { sql, params };
}
