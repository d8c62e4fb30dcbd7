/** The seam every benchmarked engine implements (one engine per file in bench/engines/). */

export interface EngineContext {
  /** JSONL corpus ({id, text, ...} per line). */
  corpusFile: string;
  /** Scratch directory the engine owns for this run (index files go here). */
  workDir: string;
  /** Scoring method, for engines with more than one (lexcase: bm25 | qld). */
  method?: string;
  /** Corpus profile: 'zipf' is indexed with stopwords and stemming off (bench/synthetic.ts). */
  corpus?: 'bench' | 'zipf';
}

export interface Searcher {
  /** Top-k passage ids for a query, best first (approximate under a posting budget when `approx` is given; lexcase only). */
  search(query: string, k: number, approx?: { postingShare: number }): Promise<string[]>;
  close?(): Promise<void> | void;
  /** Block checksum work this process has done so far (lexcase: indexer/block-checksums.ts). */
  blockChecks?(): { blocks: number; bytes: number; ms: number };
}

export interface BuildOutcome {
  /** In-memory engines hand back their searcher; on-disk engines are reopened in a fresh process. */
  searcher?: Searcher;
  /** Directory holding the on-disk index (its size is measured), when there is one. */
  indexDir?: string;
  detail?: Record<string, unknown>;
}

export interface Engine {
  readonly name: string;
  /** true: the index lives on disk and `open` loads it in a fresh process. */
  readonly persistent: boolean;
  build(ctx: EngineContext): Promise<BuildOutcome>;
  open?(ctx: EngineContext): Promise<Searcher>;
}
