import { openKeyStore, type KeyStore } from "../server/auth/api-keys.ts";
import { loadConfig, type Config } from "../server/config.ts";
import { loadEmbedder, type Embedder } from "../server/search/embedder.ts";
import { openStore, type JobStore } from "../server/search/store.ts";

/** What the local commands work on: the same DATA_DIR and model settings as the server. */
export function localConfig(): Config {
  return loadConfig();
}

/** Opens the embedder and the jobs table of DATA_DIR, as the server does. */
export async function openLocalStore(config: Config): Promise<{ store: JobStore; embedder: Embedder }> {
  const embedder = await loadEmbedder(config.embedding, (message) => console.error(message));
  const store = await openStore({ dataDir: config.dataDir, modelId: embedder.modelId, dimension: embedder.dimension });
  return { store, embedder };
}

export function openLocalKeys(config: Config): KeyStore {
  return openKeyStore(config.dataDir);
}
