/** Examples shown under each command's --help, keyed by the command path. */
export const EXAMPLES: Record<string, string[]> = {
  jobsearch: [
    'bun run cli search "backend engineer python" --city Berlin',
    "bun run cli ingest ../shared/data/jobs.jsonl.gz",
    "bun run cli keys create --name web-frontend --json",
  ],
  search: [
    'bun run cli search "backend engineer python" --city Berlin --top-k 5',
    'JOBSEARCH_API_KEY=jsk_… bun run cli search "data scientist" --country GB --since 2026-06-01 --json',
    'bun run cli search "nurse" --top-k 10 --offset 10 --detail full --url http://jobs.internal:3000',
  ],
  ingest: [
    "bun run cli ingest ../shared/data/jobs.jsonl.gz",
    "DATA_DIR=/srv/jobs bun run cli ingest postings.json --strict",
    "bun run cli ingest jobs.csv                      # a JobSpy export: detected from its header",
    "bun run cli ingest export.csv --map job_title=Title --map job_url=Link --map location=Where",
  ],
  keys: ["bun run cli keys create --name partner --rate-limit 600", "bun run cli keys list", "bun run cli keys revoke 3f9a0c1d2e4b5a67"],
  "keys create": ["bun run cli keys create --name web-frontend", "bun run cli keys create --name partner --rate-limit 600 --json"],
  "keys list": ["bun run cli keys list", "bun run cli keys list --json"],
  "keys revoke": ["bun run cli keys revoke 3f9a0c1d2e4b5a67"],
  model: ["bun run cli model build"],
  "model build": ["bun run cli model build", "MODELS_DIR=/srv/models bun run cli model build"],
};
