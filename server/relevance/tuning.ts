/*
 * The tuned numbers of search and relevance, in one place: each was set by measuring (`bun run eval`,
 * `bun run bench`); the fitted ranking weights are data of their own (ranking-weights.json).
 */

// search
/** Each retriever brings at least this many candidates, so fusion has depth beyond one page. */
export const MIN_CANDIDATES = 50;
/** From this confidence on, the knowledge base says the query names an occupation itself. */
export const NAMED_JOB_CONFIDENCE = 0.95;
/** Knowledge-base expansions at least this confident steer the query vector and search descriptions too. */
export const STRONG_EXPANSION_WEIGHT = 0.5;

// occupation-match
/** Occupations matched less confidently than this are not reported at all. */
export const MIN_CONFIDENCE = 0.2;
/** A runner-up far behind the best match is noise, not another reading of the query. */
export const MIN_RELATIVE = 0.4;
/** Evidence (idf × field weight) that counts as a full-strength match: about one rare word in a title. */
export const FULL_STRENGTH = 0.5;
/** A query that matches without naming a title is a paraphrase; it stays a little less certain. */
export const UNNAMED = 0.85;
/** When the query names a job outright, every other occupation is only an alternative to it. */
export const BESIDE_NAMED = 0.75;
/** Longest run of query words looked up as one title. */
export const MAX_TITLE_WORDS = 6;
/** The least fit of an occupation the query names, reached when nothing else in the query is explained. */
export const NAMED_FLOOR = 0.4;
/** The idf a title needs, as a share of the largest, to name a job. */
export const NAMING_MASS = 0.5;
/** Scores this close to the best count as a tie. */
export const TIE = 0.95;

// query-understanding
/** Most expansions (titles, skills) one query gains. */
export const MAX_EXPANSIONS = 12;
/** A query that already names the job gains less from its synonyms; the retrieval side decides how far to trust them. */
export const NAMED_DAMPING = 0.6;

// ranking
/** How many of the first pass's best postings feedback learns from. */
export const FEEDBACK_DEPTH = 5;

// occupation-index
/** Added to every document frequency: a word in one phrase of one entry is rare here, not necessarily telling. */
export const SMOOTHING = 1;

// store (read.ts)
/** Title words count this many times a description word in BM25. */
export const TITLE_BOOST = 3;
/** Candidate lists longer than this skip the ANN index: it gains little there (ef must be ≥ the candidates). */
export const ANN_MAX_LIMIT = 200;
/** The ANN index fetches this many times the candidates; the best by exact distance are kept. */
export const ANN_OVERFETCH = 1.4;
/**
 * IVF partitions a search probes when the table's index is partitioned (store/indexes.ts, from
 * PARTITIONED_FROM rows: √rows partitions); with one partition (smaller tables) they change nothing.
 * On 1M recombined postings (bench/perf/scale-indexes.ts, 200 query texts): 60 probes recall@20 0.953,
 * 80 0.966–0.970 at p50 ~9 ms, 120 0.977–0.982 at ~11 ms.
 */
export const ANN_NPROBES = 80;
/**
 * With a filter: it admits a part of each partition's rows, so more partitions are probed for as many
 * candidates (80 probes: recall@20 0.903; 160: 0.965–0.969 at p50 ~15 ms; 240: 0.984–0.987 at ~19 ms).
 */
export const ANN_NPROBES_FILTERED = 160;
/**
 * With a partitioned index, a filter admitting at most this many rows is searched exactly: its nearest
 * rows lie in any partition (at 1M, recall@20 at 160 probes was 0.63 for 150–300 admitted rows),
 * and LanceDB's exact search reads only the admitted rows (8–10 ms there, ~12 ms for 1,000).
 */
export const ANN_EXACT_FILTER_ROWS = 1_000;
