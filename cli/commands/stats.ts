import { defineCommand } from "citty";
import { inspectStore, type StoreStats } from "../../server/store/store.ts";
import { colorEnabled, createStyle, formatBytes, renderTable, terminalWidth, type Style } from "../format.ts";
import { localConfig } from "../local.ts";

/** `stats --json`: `postings` is the total; the breakdowns each sum to it. */
export interface StatsJson {
  data_dir: string;
  postings: number;
  by_source: Array<{ source: string; postings: number }>;
  by_country: Array<{ country: string | null; postings: number }>;
  by_month: Array<{ month: string; postings: number }>;
  model: { id: string | null; dimension: number | null } | null;
  indexes: Array<{ name: string; kind: string; type: string; columns: string[]; indexed_rows: number; unindexed_rows: number }>;
  /** The server builds the vector ANN index from this many postings on (VECTOR_INDEX_MIN_ROWS). */
  vector_index_min_rows: number;
  table: { path: string; version: number; disk_bytes: number } | null;
}

export default defineCommand({
  meta: {
    name: "stats",
    description: "Show what DATA_DIR holds: postings by source, country and month, indexes, model, version, size.",
  },
  args: {
    json: { type: "boolean", description: "Print JSON (`postings` is the total)", default: false },
  },
  async run({ args }) {
    const config = localConfig();
    const store = await inspectStore(config.table);
    let stats: StoreStats | undefined;
    try {
      stats = await store?.stats();
    } finally {
      store?.close();
    }
    const json = toJson(config.dataDir, config.vectorIndexMinRows, stats);
    if (args.json) return void console.log(JSON.stringify(json, null, 2));
    console.log(formatStats(json, { width: terminalWidth(), style: createStyle(colorEnabled()) }));
  },
});

export function formatStats(stats: StatsJson, options: { width?: number; style?: Style } = {}): string {
  const style = options.style ?? createStyle(false);
  const width = options.width === undefined ? {} : { width: options.width - 2 };
  const table = (headers: string[], rows: string[][], right: number[] = []) =>
    indent(
      renderTable(
        headers.map((header, c) => ({ header, align: right.includes(c) ? ("right" as const) : ("left" as const), shrink: c === 0 })),
        rows,
        { ...width, headerStyle: style.dim },
      ),
    );
  const section = (title: string) => style.bold(title);
  const out: string[] = [];
  out.push(`${section("data dir")}   ${stats.data_dir}`);
  out.push(`${section("postings")}   ${stats.postings}`);
  if (stats.table === null) {
    out.push(style.dim("no jobs table yet: load postings with `bun run cli ingest FILE`"));
    return out.join("\n");
  }
  const model = stats.model?.id ? `${stats.model.id} (dimension ${stats.model.dimension ?? "?"})` : "unknown";
  out.push(`${section("model")}      ${model}`);
  out.push(`${section("table")}      version ${stats.table.version}, ${formatBytes(stats.table.disk_bytes)} on disk (${stats.table.path})`);

  out.push("", section("indexes"));
  const kindName = { vector: "vector ANN", fts: "full text", scalar: "scalar" } as Record<string, string>;
  const indexRows = stats.indexes.map((index) => [
    kindName[index.kind] ?? index.kind,
    index.name,
    index.type,
    index.columns.join(", "),
    String(index.indexed_rows),
    String(index.unindexed_rows),
  ]);
  if (!stats.indexes.some((index) => index.kind === "vector")) {
    indexRows.unshift(["vector ANN", "none", "—", "vector", "", ""]);
  }
  out.push(table(["kind", "name", "type", "columns", "indexed", "unindexed"], indexRows, [4, 5]));
  if (!stats.indexes.some((index) => index.kind === "vector")) {
    out.push(
      style.dim(`  vector search is exact; the server builds the ANN index from ${stats.vector_index_min_rows} postings on (VECTOR_INDEX_MIN_ROWS)`),
    );
  }

  const breakdown = (title: string, header: string, rows: Array<[string, number]>) => {
    out.push("", section(title));
    out.push(table([header, "postings", "share"], rows.map(([key, n]) => [key, String(n), percent(n, stats.postings)]), [1, 2]));
  };
  breakdown("by source", "source", stats.by_source.map((s) => [s.source, s.postings]));
  breakdown("by country", "country", stats.by_country.map((c) => [c.country ?? "(none)", c.postings]));
  breakdown("by month", "month", stats.by_month.map((m) => [m.month, m.postings]));
  return out.join("\n");
}

// --- internal ---

function toJson(dataDir: string, vectorIndexMinRows: number, stats: StoreStats | undefined): StatsJson {
  if (!stats) {
    return {
      data_dir: dataDir, postings: 0, by_source: [], by_country: [], by_month: [], model: null, indexes: [],
      vector_index_min_rows: vectorIndexMinRows, table: null,
    };
  }
  return {
    data_dir: dataDir,
    postings: stats.postings,
    by_source: stats.bySource,
    by_country: stats.byCountry,
    by_month: stats.byMonth,
    model: stats.model,
    indexes: stats.indexes.map((index) => ({
      name: index.name,
      kind: index.kind,
      type: index.type,
      columns: index.columns,
      indexed_rows: index.indexedRows,
      unindexed_rows: index.unindexedRows,
    })),
    vector_index_min_rows: vectorIndexMinRows,
    table: { path: stats.path, version: stats.version, disk_bytes: stats.diskBytes },
  };
}

function percent(part: number, total: number): string {
  return total === 0 ? "—" : `${((part / total) * 100).toFixed(1)}%`;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}
