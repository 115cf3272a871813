# The job-search service in one image (docs/deployment.md#container-and-compose).
#   docker build -t jobsearch .            (podman: podman build --format docker -t jobsearch .)
#   docker run -p 3000:3000 -v jobsearch-data:/data jobsearch
# BUN_IMAGE picks the base: the upstream Bun image of the version package.json pins, or an equivalent
# built elsewhere (the tests build one from Debian's packages: tests/container/base-image.sh).
ARG BUN_IMAGE=oven/bun:1.4.5

# --- dependencies: production packages only, exactly as the lock file says ---
FROM ${BUN_IMAGE} AS deps
WORKDIR /app
COPY package.json bun.lock bunfig.toml ./
RUN bun install --frozen-lockfile --production

# --- model: the offline model a first start would build (~15–35 s, deterministic, no download), built once
# here; it depends on server/embedding and the key table it writes its vocabulary with alone, so a change
# elsewhere in the code reuses this layer ---
FROM deps AS model
COPY tsconfig.json ./
COPY server/embedding ./server/embedding
COPY server/text/key-table.ts ./server/text/
RUN bun -e 'import { STATIC_MODEL_ID, buildStaticModel } from "./server/embedding/static-model.ts"; \
      const built = await buildStaticModel(`/app/models/${STATIC_MODEL_ID}`, { log: console.log }); \
      console.log(`built ${built.dir}: ${built.words} words, dimension ${built.dimension}`);'

# --- demo: the demo postings a first start would load into an empty table (DEMO_DATA), loaded into /data
# (the load keeps the places index in /app/models);
# a named volume starts as a copy of /data, so a new container has them at once. No key and no OAuth
# signing key is made here (every container makes its own on its first start); the lock file goes ---
FROM deps AS demo
ENV DATA_DIR=/data MODELS_DIR=/app/models
COPY --from=model /app/models ./models
COPY tsconfig.json ./
COPY shared ./shared
COPY server ./server
COPY cli ./cli
COPY data/demo ./data/demo
RUN bun -e 'import { generateDemoPostings } from "./server/demo/generate.ts"; \
      await Bun.write("/tmp/demo.jsonl", generateDemoPostings().map((p) => JSON.stringify(p)).join("\n") + "\n");' \
 && bun cli/main.ts ingest /tmp/demo.jsonl \
 && rm -f /tmp/demo.jsonl /data/write.lock

# --- s3: not the service; the S3-compatible store of compose.yaml's replicas profile (s3rver from npm) ---
FROM ${BUN_IMAGE} AS s3
WORKDIR /s3
RUN echo '{"name":"s3","private":true,"type":"module"}' >package.json && bun add --exact s3rver@3.7.1
COPY docs/ops/compose/s3rver.ts docs/ops/compose/s3rver-order.ts ./
VOLUME /data
EXPOSE 4568
CMD ["bun", "s3rver.ts"]

# --- the image: the app read-only for a user of its own, /data its only writable place ---
FROM ${BUN_IMAGE}
RUN (getent passwd jobsearch >/dev/null || useradd --system --uid 10001 --user-group --create-home --home-dir /home/jobsearch jobsearch) \
 && mkdir -p /data && chown jobsearch:jobsearch /data
WORKDIR /app
# Dependencies and model first: layers that stay the same while only the code changes.
COPY --from=deps /app/node_modules ./node_modules
COPY --from=model /app/models ./models
COPY package.json bun.lock bunfig.toml tsconfig.json ./
COPY shared ./shared
COPY server ./server
COPY cli ./cli
COPY data/demo ./data/demo
# The places index the demo load kept beside the model (server/places/gazetteer.ts): a start reads it as
# it is instead of indexing 135k cities (~1.5 s); /app/models is read-only to the server.
COPY --from=demo /app/models/places-index.bin ./models/
COPY --from=demo --chown=jobsearch:jobsearch /data /data
# Bun keeps what it transpiled of larger source files in a cache; one filled here (read-only at run time) spares
# every start ~0.2 s (~0.4 s of CPU) that a container's empty home would cost it.
ENV BUN_RUNTIME_TRANSPILER_CACHE_PATH=/app/.transpiler-cache
RUN bun -e 'await import("./server/start.ts")'
ENV NODE_ENV=production \
    DATA_DIR=/data \
    MODELS_DIR=/app/models \
    HOST=0.0.0.0 \
    PORT=3000 \
    LOG_FORMAT=json
VOLUME /data
USER jobsearch
EXPOSE 3000
# Ready (table open, model loaded): /readyz answers 200. Bun does the request (the image has no curl).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["bun", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The server stops gracefully on SIGTERM (finishes requests in flight, closes the table, exits 0; server/shutdown.ts).
STOPSIGNAL SIGTERM
CMD ["bun", "server/main.ts"]
