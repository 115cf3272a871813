import type { KeyStore } from "../server/auth/api-keys.ts";
import { openKeys } from "../server/auth/stores.ts";
import { loadConfig, type Config } from "../server/config.ts";
import { loadEmbedder, type Embedder } from "../server/embedding/embedder.ts";
import { openStore, type JobStore } from "../server/store/store.ts";
import { note } from "./format.ts";

/** Opens the embedder and the jobs table of DATA_DIR, as the server does. */
export async function openLocalStore(config: Config): Promise<{ store: JobStore; embedder: Embedder }> {
  const embedder = await loadEmbedder(config.embedding, note);
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
  const keys = await openKeys(loadConfig());
  try {
    return await use(keys);
  } finally {
    keys.close();
  }
}

