/** Examples shown under each command's --help, keyed by the command path. */
export const EXAMPLES: Record<string, string[]> = {
  jobsearch: [
    "bun run cli config set api-key jsk_…",
    'bun run cli search "backend engineer python" --city Berlin',
    "bun run cli ingest ../shared/data/jobs.jsonl.gz",
    "bun run cli stats",
    "bun run cli keys create --name web-frontend --json",
  ],
  search: [
    'bun run cli search "backend engineer python" --city Berlin --top-k 5',
    'JOBSEARCH_API_KEY=jsk_… bun run cli search "data scientist" --country GB --since 2026-06-01 --json',
    'bun run cli search "nurse" --top-k 10 --offset 10 --detail full --url http://jobs.internal:3000',
    'xdg-open "$(bun run cli search "ios developer" --open 2)"',
    'bun run cli search "accountant" --json | jq -r ".results[].job_url"',
  ],
  cities: ["bun run cli cities", "bun run cli cities --json | jq -r '.cities[] | select(.country == \"DE\") | .city'"],
  stats: ["bun run cli stats", "DATA_DIR=/srv/jobs bun run cli stats --json | jq .postings"],
  config: ["bun run cli config set url http://jobs.internal:3000", "bun run cli config set api-key jsk_…", "bun run cli config show"],
  "config show": ["bun run cli config show", "JOBSEARCH_URL=http://localhost:4000 bun run cli config show --json"],
  "config set": ["bun run cli config set url http://jobs.internal:3000", "bun run cli config set api-key jsk_…"],
  "config unset": ["bun run cli config unset api-key"],
  ingest: [
    "bun run cli ingest ../shared/data/jobs.jsonl.gz",
    "DATA_DIR=/srv/jobs bun run cli ingest postings.json --strict",
  ],
  keys: ["bun run cli keys create --name partner --rate-limit 600", "bun run cli keys list", "bun run cli keys revoke 3f9a0c1d2e4b5a67"],
  "keys create": ["bun run cli keys create --name web-frontend", "bun run cli keys create --name partner --rate-limit 600 --json"],
  "keys list": ["bun run cli keys list", "bun run cli keys list --json"],
  "keys revoke": ["bun run cli keys revoke 3f9a0c1d2e4b5a67"],
  model: ["bun run cli model build"],
  "model build": ["bun run cli model build", "MODELS_DIR=/srv/models bun run cli model build"],
};
