import type { KeyStore } from "../server/auth/api-keys.ts";
import { openKeys } from "../server/auth/stores.ts";
import { loadConfig, type Config } from "../server/config.ts";
import type { Embedder } from "../server/embedding/embedder.ts";
import type { JobStore } from "../server/store/store.ts";
import { note } from "./format.ts";

/**
 * The configuration the server reads (environment variables; Bun also reads a `.env` file in the
 * folder the command runs in, as it does for `bun run server`), saying once on stderr which data it
 * reads: a local command on `./data` while the server serves another DATA_DIR was a silent surprise.
 */
export function localConfig(env: Record<string, string | undefined> = Bun.env): Config {
  const config = loadConfig(env);
  if (!announced) {
    announced = true;
    note(dataLine(config, env));
  }
  return config;
}

/** "data: /srv/jobs (DATA_DIR)", or the default's line with how to change it. */
export function dataLine(config: Config, env: Record<string, string | undefined> = Bun.env): string {
  if (env.DATA_URI) return `data: ${config.table.uri} (DATA_URI; keys and state in ${config.dataDir})`;
  if (env.DATA_DIR) return `data: ${config.dataDir} (DATA_DIR)`;
  return `data: ${config.dataDir} (the default ./data; set DATA_DIR, or put DATA_DIR=… in .env here, which the server reads too)`;
}

let announced = false;

/** Opens the embedder and the jobs table of DATA_DIR, as the server does; `say` is told of the model's load. */
export async function openLocalStore(config: Config, say: (line: string) => void = note): Promise<{ store: JobStore; embedder: Embedder }> {
  // Loaded here: commands that never open the table (keys, config) would pay ~1 s for these on every start.
  const [{ keepPlacesIndexIn }, { loadEmbedder }, { openStore }] = await Promise.all([
    import("../server/places/gazetteer.ts"),
    import("../server/embedding/embedder.ts"),
    import("../server/store/store.ts"),
  ]);
  keepPlacesIndexIn(config.embedding.modelsDir);
  const embedder = await loadEmbedder(config.embedding, say);
  const store = await openStore({
    dataDir: config.table.uri,
    ...(config.table.storageOptions ? { storageOptions: config.table.storageOptions } : {}),
    modelId: embedder.modelId,
    dimension: embedder.dimension,
  });
  return { store, embedder };
}

/** Runs `use` on the key store the server uses (Redis with REDIS_URL, else DATA_DIR) and closes it afterwards. */
export async function withLocalKeys<T>(use: (keys: KeyStore) => Promise<T>): Promise<T> {
  const keys = await openKeys(localConfig());
  try {
    return await use(keys);
  } finally {
    keys.close();
  }
}

