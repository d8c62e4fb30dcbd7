/**
 * Config fields that later lexcase versions record and a run dir written before them does not
 * hold, so a resume (eval/runner.ts) or a replay (eval/llm-exchanges.ts) has nothing to check them
 * against:
 *
 *   indexContent  what the index held (indexer/manifest.ts `indexContent`: corpus checksum, analyzer,
 *                 dense model); agent runs recorded only its path before, `reproduce` retrieval runs
 *                 only its corpus name, checksum, passage count and methods (config `index`)
 *   indexContent.dense.vectors
 *                 the settings the index's dense vectors were made with (word limit, prefixes,
 *                 quantized); indexContent recorded only their model and dimension before
 *   indexContent.dense.vectors.source
 *                 where those vectors came from (the embedding endpoint, redacted, or a digest of a
 *                 local model folder's files; indexer/embed/vector-source.ts); not recorded before,
 *                 and not by an index built before it (then the new config has none either)
 *   indexContent.analyzerUnicode
 *                 the Unicode version the index's analyzer read its characters with (manifest
 *                 `analyzerUnicode`, indexer/analyzer-unicode.ts); not recorded before, and not by an
 *                 index built before the manifest recorded it. A resume where both record it and it
 *                 differs warns (eval/runner.ts), as the key is operational (resume-config.ts)
 *   indexContent.dense.embeddedTextChecksum
 *                 the checksum of the ids and title + text the dense vectors were embedded from
 *                 (indexer/dense/embedded-text.ts; the corpus checksum covers no titles); not recorded
 *                 before, and not by an index built before it
 *   indexContent.lancedbFts
 *                 the checksum of the ids and title + text the lancedb-fts table indexes
 *                 (indexer/lancedb-fts-build.ts); not recorded before, and not by an index built before it
 *   model         the whole public LLM config (endpoint, provider, sampling, structured-output mode);
 *                 EMAR, 3-ply and ACAL runs recorded only the model id (a string) before
 *   index.methods a reproduce bm25/qld run's index methods: without dense (which it never reads)
 *                 since eval/reproduce/retrieval-run.ts recordedIndex; an older lexcase listed dense
 *                 too where the index had it
 *   componentRanking
 *                 how a CASE offline run ranks the retriever runs its advocates fuse ("trec_eval, depth
 *                 past ties": each run as printed, retrieval/top-k.ts printedRun); an older lexcase fused
 *                 each retriever's internal tie order, so its offline run dirs are refused, never "unknown"
 *   searchRanking how an agent run's searches cut their top k ("trec_eval, top k past ties": the search tools, a RAG
 *                 baseline's context and the IR solver's pool as `lexcase search -k` prints them, retrieval/top-k.ts
 *                 printedRun); an older lexcase kept the retriever's index order at a tie across the cut, so an
 *                 item it ran may have seen another passage: unknown (the resume warns), never refused
 *   searchScoreDigits
 *                 the significant digits an agent run's searches read a hybrid's fused scores with at the top-k cut
 *                 ({ hybrid: 10 }, retrieval/top-k.ts searchScoreDigits; MAD --method hybrid, CASE where its tools search it, ACAL over an index
 *                 with dense, the hybrid-rag baseline); an older lexcase read them to 6 decimals, which ties close fused
 *                 scores (then ordered by id), so an item it ran may have seen another passage: unknown (the resume warns)
 *   denseQueryWordLimit
 *                 the word limit an agent run's dense queries are embedded in pieces of, where the index sets
 *                 it (a use-lite index built with --max-words under 64; retrieval/dense-query.ts); an older
 *                 lexcase embedded 64-word pieces there, of which the embedder kept the first N words (a warning)
 *   evidence      the evidence selection an offline CASE run ran ("learned" or "plan"): an older lexcase
 *                 recorded "learned" (the default asked for) also where the query plan ran (--tools given, or
 *                 an index without bm25 and qld); such a record is taken as unknown, and corrected from then on
 *   selector      which learned evidence selector an offline CASE run's evidence came from: its feature
 *                 count, keep, training split and a digest of its weights (agents/case/selector-training.ts);
 *                 runs before it recorded only `evidence: "learned"`, so a resume after the weights were
 *                 refitted ran its new items with another selector than its earlier ones, unseen
 *   hypothesisMapping
 *                 how CASE's exploratory hypotheses are mapped to options (agents/case/map-hypotheses.ts):
 *                 an older lexcase gave a tie the lowest letter, so its exploratory run dirs are refused
 *   juryTieRule   how an LLM CASE run's jury breaks a tied vote (agents/case/majority-vote.ts JURY_TIE_RULE): the
 *                 summed evidence scores at 10 significant digits, then a seeded draw; an older lexcase compared
 *                 the float sums exactly, so the same evidence listed in another order could decide a tie (a resume warns)
 *   evidenceQuery ACAL's (and its RAG baseline's) evidence search query, the task's terms and the
 *                 whole item text; unknown only where it was the same before: learned_hands_courts
 *                 searched with the post's first 600 characters, so its old run dirs (with
 *                 retrieval) differ and are refused
 *   passageChars  the characters of each evidence passage a prompt shows: ACAL and its RAG baseline
 *                 (unknown only when it is 700, what every ACAL run showed before it was recorded),
 *                 CASE's jurors and its baselines (agents/common/defaults.ts CASE_PROMPT_LIMITS,
 *                 never changed); MAD has always recorded its own
 *   prompts       what the system sends that decides its results: its prompt templates, reply schemas
 *                 and tool definitions, as a fingerprint (eval/request-fingerprint.ts); runs before it
 *                 recorded none, so a run dir an older lexcase started may have sent other prompts
 *                 (its `resumes[].gitSha` says which lexcase); a recorded one that differs is refused
 *   splitSeed     EMAR's Bar Exam QA split seed (always 13 before `run emar --split-seed`; runs before it
 *                 recorded none); a `reproduce` retrieval run's split seed where it was the default 13
 *                 (an older lexcase recorded null there)
 *   evaluatorTemperature
 *                 the temperature of 3-ply's Factor Distiller (always 0; runs before it recorded only
 *                 the argument agents' `temperature`)
 *   requestSeeds  MAD's note that each request's seed is derived from the run seed per role and call
 *                 (agents/mad/llm-call.ts; always so, runs before it recorded no note)
 *   advocateNoteChars, compileCandidates, compileSnippetChars, searchSnippetChars
 *                 how much of each text CASE's advocate prompts show (CASE_PROMPT_LIMITS; the values
 *                 never changed, runs before them recorded none)
 *   searchSnippetMarks
 *                 how CASE's search snippets count their "…" cut marks: within searchSnippetChars
 *                 (retrieval/tools/snippet.ts); an older lexcase added them beyond it (up to 4
 *                 characters more), so the resume warns
 *   itemCounts    what each item's line counts beyond its answer (eval/item-counts.ts: denseSearches,
 *                 tokens.textOtherAnswer); an older lexcase counted neither, so report.md says how many
 *                 of its lines are still in the run, not counted (its failed ones kept as failed named;
 *                 a resume warns)
 *   textOtherAnswerReading
 *                 what tokens.textOtherAnswer counts (core/llm/text-beside-call.ts): an older lexcase counted a
 *                 forced call's text naming another letter only, not a Yes/No answer's, a reasoning field's, or a
 *                 json_schema / prompt mode reply's prose, so report.md says how many earlier items were not
 *                 counted so (a resume warns)
 *   seedDerivation how each item's seeded draws (presentation orders, tie-breaks, jury panels) follow
 *                 from the run seed (core/rng.ts SEED_DERIVATION); an older lexcase drew them with
 *                 FNV-1a alone, so the items a resume runs are drawn otherwise than its earlier ones:
 *                 the warning says so. A run dir that records another derivation is refused; a
 *                 replay (eval/llm-exchanges.ts) and a merge (eval/reproduce/merge.ts) refuse an
 *                 unrecorded one too
 *   dataFiles     the LegalBench files a run read, by split: where each was found (--data,
 *                 $LEXCASE_LEGALBENCH_DIR, bundled), its path and sha256 (corpora/legalbench.ts), and
 *                 CASE's, MAD's and EMAR's Bar Exam QA file (corpora/registry.ts datasetFileRecord); runs before
 *                 it recorded none, so which copy their earlier items read is unknown
 *   indexBuild    a `reproduce anserini-cacm` run's index format, its version and the lexcase version that
 *                 built the collection's index (its manifest.json); runs before it recorded none
 *   yesNoReading  how an ACAL run reads a Yes/No reply (agents/common/yes-no.ts): "yes", "No.", "(YES)"
 *                 are taken; an older lexcase took "Yes" and "No" exactly, retried any other and then
 *                 failed the item, so its failed items may differ (a resume runs them again by default)
 *   optionLetterReading
 *                 how a CASE, MCQ baseline, MAD or EMAR run reads an option letter (agents/common/option-letter.ts):
 *                 "b", "(B)", "B. <text>" are taken; an older lexcase read a hedged reply ("A or D",
 *                 "(A) or (D)") as its first letter, so its earlier items may differ (a resume warns); one
 *                 that recorded the reading before 2026-12-01 read "B. Not B; the answer is c" (a lower-case
 *                 letter named as the answer) as B: that older value warns the same way ("records an older")
 *   passageHandleReading
 *                 how a CASE, MAD or ACAL run reads the passage handles its models cite
 *                 (agents/common/passage-handles.ts): "(P3)", "P3.", "Passage 3" are taken; an older
 *                 lexcase took "P3", "[P3]", "p3" only, so its earlier items may have lost citations (a resume warns); one
 *                 that recorded the reading on 2026-12-01 counted an unresolved citation at every parse of a reply, or
 *                 by its text and showed it back under a handle of its own: those older values warn the same way
 *                 ("records an older")
 *   relationsReading
 *                 how an ACAL run reads an argument-relations reply (agents/acal/llm/identify-relations.ts): a list-form
 *                 reply that judges one pair twice two ways is refused; an older lexcase kept the first (a resume warns)
 *   scoresReading  how an ACAL run reads an argument-scores reply (agents/acal/llm/score-arguments.ts): a list-form reply
 *                 that scores one argument twice with different scores is refused; an older lexcase kept the first (a resume warns)
 *   clashWinnerReading
 *                 how an ACAL run reads a clash's winner (agents/acal/clash-winner.ts): "a", "B.", "(A)",
 *                 "Argument B" are taken; an older lexcase took "A" and "B" exactly, retried any other and
 *                 then failed the clash step, so its items may differ (a resume warns)
 *   factorMentionReading
 *                 how a 3-ply run reads the Factor Distiller's factor strings (agents/threeply/metrics.ts): every
 *                 factor id a string names counts, and a bare factor name beside one; an older lexcase read
 *                 "F4 …, F6 …" as F4 alone, so its earlier triples may hold other N_h / N_util (a resume warns);
 *                 one that recorded the reading on 2026-12-01 read "F4 …, Security-measures (P)" as F4 alone:
 *                 that older value warns the same way ("records an older")
 *   polisherReading
 *                 how a reflective 3-ply run reads the Argument Polisher's reply (agents/threeply/argument-polisher.ts):
 *                 a reply without `revision_needed` is refused; an older lexcase read it as no revision, and kept
 *                 a draft whose polished text was empty uncounted (a resume warns)
 *   terminateReading
 *                 how a 3-ply run reads an abstention (agents/threeply/format.ts isTerminate): the paper's "TERMINATE"
 *                 token in capitals, alone or before punctuation; an older lexcase took "terminate" in any case
 *                 followed by anything, so a ply beginning "Terminate the contract …" was an abstention (a resume warns)
 *   model         a library call's model given as `llm` alone (core/llm/model-record.ts): an older lexcase
 *                 recorded null (CASE, MAD) or none (ACAL), so a resume cannot check it (a resume warns)
 *   replyReading  how an LLM run reads replies (core/llm/reply-reading.ts): a reasoning
 *                 model's `<think>` block is dropped before the answer is parsed; an older lexcase
 *                 parsed a draft object inside it as the answer, so its earlier items may differ
 *   usageReading  how an LLM run reads a reply's token usage (core/llm/usage-reading.ts): a total_tokens
 *                 above prompt + completion (a thinking model's reasoning, as gateways in front of Gemini
 *                 send it) is counted whole; an older lexcase took prompt + completion for the total, so
 *                 its earlier items' token totals may be smaller than this lexcase's (a resume warns); one
 *                 from before 2026-12-05 took a total below prompt + completion for the total and read
 *                 input_tokens/output_tokens as a total alone ("records an older", a resume warns)
 *   retriever.search, retriever.components.dense.search
 *                 how a reproduce dense (hybrid) run searched an ANN table: its type and nprobes /
 *                 refineFactor / ef, or exact (retrieval/dense.ts); runs before it recorded none
 *   retriever.scoreDigits
 *                 the significant digits a reproduce hybrid run's fused scores keep (retrieval/hybrid.ts
 *                 HYBRID_SCORE_DIGITS, 10); an older lexcase rounded them to 6 decimals, which tied them
 *                 past a few hundred ranks (then ordered by docid), so its run dirs are refused
 *   ranking       the order a reproduce retrieval or trec run ranks hits in ("trec_eval, top k past
 *                 ties": ties by docid descending, the top k searched past ties at the cut, as `eval
 *                 retrieval`); an older lexcase kept the retriever's order on ties (or, "trec_eval", at
 *                 the depth's cut), so its run dirs (ranks made the other way) are refused, never "unknown";
 *                 a hybrid run cut at its depth records "trec_eval, top k past ties and past the depth",
 *                 and one an older lexcase cut there (a fused tie at the cut in the fused order) is refused
 *
 * The older values of the readings (optionLetterReading, textOtherAnswerReading; passageHandleReading,
 * factorMentionReading, replyReading) come from their registries, core/llm/named-answer-readings.ts and
 * core/recorded-readings.ts, each entry with its day: an older value recorded there is "records an older …".
 *
 * Such a field is "unknown", not a difference: the resume goes on, says so in a warning, records
 * the fields in its `resumes` entry (`unchecked`), and config.json records them from then on, so
 * the next resume checks them. Any other missing or differing field is still a difference. A merge
 * (eval/reproduce/merge.ts) compares two shards through the same function (eval/resume-compare.ts),
 * the older shard as the recorded one, and warns the same way (config.json `mergeWarnings`).
 */
import { ITEM_COUNTS_BEFORE_WIDENED } from './item-counts.js';
import { isOlderReading, NAMED_ANSWER_READINGS } from '../core/llm/named-answer-readings.js';
import { RECORDED_READINGS } from '../core/recorded-readings.js';

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A field the old config does not hold and the new one does. */
const absent = (before: unknown, after: unknown) => before === undefined && after !== undefined;

/**
 * Each field (a path of keys into the config): whether the old config (`old`, whole) lacks what the
 * new one records, what it is, for the warning, and (`differed`) why an old config without it is
 * refused where it is not "unknown". A nested field is unknown only where the old config records
 * its parent (an old `indexContent` with a `dense` part, but no `vectors` in it).
 */
const ADDED: {
  path: string[];
  what: string;
  lacks(before: unknown, after: unknown, old: Record<string, unknown>): boolean;
  differed?: string;
  /** What it is, for the warning, where the old config records it with an older value (`lacks` true): "records an older …". */
  olderWhat?: string;
  /** Why an old config recording one of these older values differs (the refusal's reason). */
  older?: Record<string, string>;
  /** Older recorded values that mean the same as the new one (a description reworded): taken as the new one, with no word. */
  sameAs?: readonly string[];
  /** Recorded by the runner itself (eval/runner.ts) in every run, a system of the caller's own too; the rest only by lexcase's systems. */
  runner?: true;
}[] = [
  {
    path: ['indexContent'],
    what: "the index's corpus checksum and analyzer",
    lacks: absent,
  },
  { path: ['prompts'], what: 'the prompts, reply schemas and tools it sends (a fingerprint)', lacks: absent },
  // LegalBench runs (ACAL, EMAR on hearsay): the file each split was read from and its sha256 (corpora/legalbench.ts)
  { path: ['dataFiles'], what: 'the data files it read (where, and their sha256)', lacks: absent },
  // a CACM (trec) run's index: the index format and lexcase that built it (eval/reproduce/trec-run.ts); runs before it recorded none
  { path: ['indexBuild'], what: 'the index format and lexcase version that built the index it searched', lacks: absent },
  { path: ['advocateNoteChars'], what: "the characters of each advocate's note", lacks: absent },
  { path: ['compileCandidates'], what: "the candidates an advocate's compile prompt lists", lacks: absent },
  { path: ['compileSnippetChars'], what: "the characters of each candidate in an advocate's compile prompt", lacks: absent },
  // CASE's advocates always read 600-character search snippets (retrieval/tools/search-tool.ts); runs before it recorded none
  { path: ['searchSnippetChars'], what: 'the characters of each search snippet an advocate reads', lacks: absent },
  {
    // CASE's search snippets count their "…" marks within searchSnippetChars (retrieval/tools/snippet.ts); an older lexcase added them beyond it
    path: ['searchSnippetMarks'],
    what: 'how a search snippet\'s "…" cut marks count: an older lexcase added them beyond searchSnippetChars (a 600-character snippet could be 604), so its advocates read up to 4 characters more of some hits than the items this resume runs',
    lacks: absent,
  },
  // MAD has always derived its requests' seeds from the run seed; runs before it recorded no note saying so
  { path: ['requestSeeds'], what: "how MAD's requests' seeds are made", lacks: absent },
  // EMAR's Bar Exam QA split was always drawn with seed 13 (no --split-seed before it); runs before it recorded none.
  // A reproduce retrieval run drawn with the default seed 13 recorded null before it recorded the seed it used.
  {
    path: ['splitSeed'],
    what: "the Bar Exam QA split's seed",
    lacks: (before, after, old) => after === 13 && ((before === undefined && old.system === 'emar') || (before === null && old.system === 'retrieval')),
  },
  // 3-ply's Factor Distiller has always run at temperature 0; runs before it recorded only the agents' temperature
  { path: ['evaluatorTemperature'], what: "the 3-ply Factor Distiller's temperature", lacks: (before, after) => before === undefined && after === 0 },
  {
    path: ['indexContent', 'dense', 'vectors'],
    what: "the settings the index's dense vectors were made with",
    lacks: absent,
  },
  {
    path: ['indexContent', 'dense', 'vectors', 'source'],
    what: "the embedding endpoint or model files the index's dense vectors came from",
    lacks: absent,
  },
  {
    // the Unicode version of the index's analyzer (indexer/analyzer-unicode.ts); an index built before the manifest recorded it has none (then the new config has none either)
    path: ['indexContent', 'analyzerUnicode'],
    what: "the Unicode version the index's analyzer read its characters with",
    lacks: absent,
  },
  {
    path: ['indexContent', 'dense', 'embeddedTextChecksum'],
    what: "the checksum of the passages' titles and texts the index's dense vectors were embedded from",
    lacks: absent,
  },
  {
    path: ['indexContent', 'lancedbFts'],
    what: "the checksum of the passages' titles and texts the index's lancedb-fts table indexes",
    lacks: absent,
  },
  {
    path: ['terminateReading'],
    what: 'how a 3-ply abstention is read: an older lexcase took a ply or reply whose first or last line began "terminate" in any case ("Terminate the contract …") for the paper\'s TERMINATE, so its earlier triples may count abstentions, and leave plies unscored, where this lexcase reads an argument',
    lacks: (before, after) => absent(before, after) || isOlderReading(RECORDED_READINGS.terminateReading, before, after),
    olderWhat:
      'how a 3-ply abstention is read: the lexcase that recorded it (before 2026-12-05) kept a reflective ply whose polished output read TERMINATE as an argued ply (its triple counted as argued, with no factor: abstention lower, hallucination accuracy higher) and scored the plies a single-agent reply wrote after its TERMINATE, so its earlier triples may count where this lexcase reads an abstention',
  },
  {
    path: ['model'],
    what: 'the LLM endpoint, provider and sampling',
    lacks: (before, after) => typeof before === 'string' && isObject(after) && after.model === before,
  },
  {
    // a reproduce bm25/qld run records the index's methods without dense (which it never reads); an
    // older lexcase listed dense too where the index had it
    path: ['index', 'methods'],
    what: 'the methods of the index a bm25 or qld run reads (an older lexcase listed dense too)',
    lacks: (before, after, old) =>
      old.system === 'retrieval' &&
      Array.isArray(before) &&
      Array.isArray(after) &&
      before.includes('dense') &&
      JSON.stringify(before.filter((m) => m !== 'dense')) === JSON.stringify(after),
  },
  // a reproduce dense or hybrid run over an ANN table records how the table was searched (type, nprobes, refineFactor, ef; or exact:
  // retrieval/dense.ts config.search); an older lexcase recorded none, with the same hits
  { path: ['retriever', 'search'], what: 'how its dense table was searched (ANN type and knobs)', lacks: absent },
  { path: ['retriever', 'components', 'dense', 'search'], what: "how hybrid's dense table was searched (ANN type and knobs)", lacks: absent },
  {
    path: ['ranking'],
    what: 'the order hits are ranked in',
    lacks: () => false,
    differed:
      "this run dir's ranks were made by an older lexcase, which kept the retriever's order on score ties (now trec_eval's: ties by docid descending, as `lexcase eval retrieval`)",
    older: {
      trec_eval:
        "this run dir's ranks were made by an older lexcase, which kept the retriever's order on score ties at the depth's cut (now the top k searched past such ties, in trec_eval's order, as `lexcase eval retrieval`)",
      // recorded by a hybrid run whose deepest cutoff reached its depth (eval/reproduce/retrieval-run.ts HYBRID_PAST_DEPTH_RANKING)
      'trec_eval, top k past ties':
        "this run dir's hybrid ranks were cut by an older lexcase at the hybrid's depth, a tie in the fused scores at the cut kept in the fused order (now searched past the depth in trec_eval's order: the first k of a deeper run)",
    },
  },
  {
    // a hybrid records the significant digits its fused scores keep in a run file and every order read from it
    // (retrieval/hybrid.ts HYBRID_SCORE_DIGITS); an older lexcase rounded them to 6 decimals
    path: ['retriever', 'scoreDigits'],
    what: "the significant digits of the hybrid's fused scores",
    lacks: () => false,
    differed:
      "this run dir's hybrid ranks were made by an older lexcase from fused scores rounded to 6 decimals, which tie past a few hundred ranks and were then ordered by docid (now 10 significant digits: the fusion's order)",
  },
  {
    path: ['componentRanking'],
    what: 'how the runs the offline CASE advocates fuse are ranked',
    lacks: () => false,
    differed:
      "this run dir's evidence was fused by an older lexcase from each retriever's internal tie order (now each run as printed: trec_eval's order, ties by docid descending, as `lexcase search` shows it), so its items and new ones would not be comparable",
  },
  {
    // agent runs that search (CASE, its RAG baselines, MAD, ACAL and its RAG baseline) cut each search's top k as `lexcase search -k`
    // prints it (retrieval/top-k.ts printedRun); an older lexcase kept the retriever's index order at a tie across the cut
    path: ['searchRanking'],
    what: "how each search's top k is cut: an older lexcase kept the retriever's index order where passages tied at the cut (now trec_eval's, ties by id descending, as `lexcase search -k` prints them), so an item it ran may have seen another passage there than the items this resume runs",
    lacks: absent,
  },
  {
    // agent runs that search with a hybrid (MAD --method hybrid, CASE and ACAL over an index with dense, the hybrid-rag baseline)
    // record the digits its fused scores are cut by (retrieval/top-k.ts searchScoreDigits; Retriever.scoreDigits); an older lexcase
    // cut them at 6 decimals. Unknown (a warning), as searchRanking: it can move a passage across a search's cut only where
    // fused scores tie at 6 decimals there, in the rare search, while a reproduce hybrid run's whole ranking is refused
    path: ['searchScoreDigits'],
    what: "the significant digits a hybrid's fused scores are read with where each search's top k is cut: an older lexcase read them to 6 decimals, where close fused scores tie (then ordered by id), so an item it ran may have seen another passage at the cut than the items this resume runs",
    lacks: absent,
  },
  {
    // agent runs whose dense (or hybrid's dense) queries are embedded in pieces of the index's word limit (a use-lite index
    // built with --max-words under 64) record it (retrieval/dense-query.ts denseQueryWordLimit); an older lexcase embedded
    // 64-word pieces there, of which the embedder kept the first N words. Unknown (a warning): only a sentence of more words changed
    path: ['denseQueryWordLimit'],
    what: 'the word limit each dense query is embedded in pieces of: an older lexcase embedded 64-word pieces over this index, of which the embedder kept only the first --max-words words (the rest of a longer sentence was not read), so an item it ran may have searched with another query vector than the items this resume runs',
    lacks: absent,
  },
  {
    // an offline CASE run records the evidence selection that ran; an older lexcase recorded "learned" (the default asked
    // for) also where the query plan ran: --tools given, or an index without bm25 and qld (agents/case/case-offline-system.ts learnedApplies)
    path: ['evidence'],
    what: 'the evidence selection that ran: an older lexcase recorded "learned" where the query plan ran (--tools given, or no bm25 and qld in the index)',
    lacks: (before, after, old) =>
      before === 'learned' &&
      after === 'plan' &&
      old.system === 'case' &&
      old.mode === 'offline heuristic, no LLM' &&
      (Array.isArray(old.tools) || (Array.isArray(old.retrievers) && !(old.retrievers.includes('bm25') && old.retrievers.includes('qld')))),
  },
  // an offline CASE run whose evidence the learned selector chose records which fit (features, training split, weights
  // digest: agents/case/selector-training.ts selectorRecord); runs before it recorded none
  { path: ['selector'], what: 'which learned evidence selector chose the evidence (features, training split, weights digest)', lacks: absent },
  {
    path: ['hypothesisMapping'],
    what: "how CASE's exploratory hypotheses are mapped to options",
    // only exploratory runs record it (a direct run has none before or after): an older one is refused, never "unknown"
    lacks: () => false,
    differed:
      "this run dir's exploratory hypotheses were mapped by an older lexcase, which gave a hypothesis equally close to several options the lowest letter (towards option A; now none), so its items and new ones would not be comparable",
  },
  {
    // an LLM CASE run records how its jury breaks a tie (agents/case/majority-vote.ts JURY_TIE_RULE); an older lexcase
    // compared the summed evidence scores exactly, so float noise could decide a tie the seeded draw decides now
    path: ['juryTieRule'],
    what: "how CASE's jury breaks a tied vote: an older lexcase compared the tied letters' summed evidence scores exactly, so letters with the same evidence (the same passages at the same ranks, listed in another order) were told apart by the float's last bits and the tie went to one of them without the seeded draw; its earlier items may hold such predictions",
    lacks: absent,
  },
  {
    path: ['evidenceQuery'],
    what: 'the evidence search query',
    lacks: (before, after, old) => before === undefined && after !== undefined && (old.task !== 'learned_hands_courts' || old.k === 0),
    differed: "this run dir's items were retrieved by an older lexcase, which searched with the first 600 characters of each post only",
  },
  {
    path: ['yesNoReading'],
    what: 'how a Yes/No reply is read: an older lexcase took only "Yes" and "No" exactly, and failed an item whose judge or baseline answered "yes" or "No." (after a retry), so the items it failed may differ from what this lexcase would decide',
    lacks: absent,
  },
  {
    path: ['optionLetterReading'],
    what: 'how an option letter is read: an older lexcase read a hedged reply ("A or D", "(A) or (D)", "B. Not B; the answer is C", "B. Not B; the answer is c") as its first letter, so its earlier items may hold juror votes, answers or verdicts this lexcase refuses (asked again once, then the step fails)',
    // recorded before 2026-12-01, when a lower-case letter named as the answer ("B. Not B; the answer is c") named none, or
    // before 2026-12-02's one rule for a letter named as the answer (core/llm/named-answer.ts)
    lacks: (before, after) => absent(before, after) || isOlderReading(NAMED_ANSWER_READINGS.optionLetterReading, before, after),
    olderWhat:
      'how an option letter is read: the lexcase that recorded it read "B. Not B; the answer is c" as B (before 2026-12-01) and "B. Final answer: **C**", "B. ANSWER: C", "B. The answer is option C" and "B. My vote: C" (and, before the fourth change of 2026-12-02, "B. Option C is the correct answer.") as B (before 2026-12-02), refused "B. Answer: A lawyer must …" (the article read as the letter A) and "C. If the answer is B, the seller would win, but it is not." (a letter under a condition read as named; until the fifth change of 2026-12-02, "C. If, as the buyer argues, the answer is B, …" too: a condition cut by a set-off clause; until its sixth, "C. The seller argues that the answer is B.": another party\'s position reported; and until its seventh, "C. The court held that the answer is B." and "C. The answer is B, but only if …"), read "C. The answer, in my view, is B." as C (until the seventh change of 2026-12-02: a phrase set off before "is" named nothing) and "C. This analysis concludes that the answer is B." as C (until 2026-12-03: the reply\'s own analysis read as another party) and "B. <option A\'s text, whole>" as B (until 2026-12-05: a letter followed by another option\'s text), and counted "Answer: A lawyer …" beside a forced call B as a reply naming another answer (tokens.textOtherAnswer) while "Answer: C … answer: D" beside B was not, so its earlier items may hold juror votes, answers or verdicts this lexcase refuses (asked again once, then the step fails), steps failed where this lexcase reads a letter, and textOtherAnswer counts this lexcase would not make',
  },
  {
    path: ['passageHandleReading'],
    what: 'how a cited passage handle is read: an older lexcase read only "P3", "[P3]" and "p3", so a citation its models wrote "(P3)", "P3." or "Passage 3" named no passage (a MAD citation not in the index, a CASE advocate\'s pick or an ACAL argument\'s citation dropped), uncounted; its earlier items may hold citation and evidence figures this lexcase would not',
    // recorded on 2026-12-01 before a citation that names no handle was counted once per accepted reply
    lacks: (before, after) => absent(before, after) || isOlderReading(RECORDED_READINGS.passageHandleReading, before, after),
    olderWhat:
      'how a cited passage handle is read: the lexcase that recorded it (2026-12-01) counted a citation that names no passage handle ("P3, P5") at every parse of a reply (a MAD reply re-asked or parsed again, a CASE final reply whose picks a compile call replaced), or by its text (a handle whose real id a model had written out counted too), and showed it back to a MAD debater or judge under a handle of its own, so its earlier items may count such citations (metrics.unresolvedCitations) and citation figures otherwise than this lexcase would',
  },
  {
    path: ['relationsReading'],
    what: 'how an argument-relations reply is read: an older lexcase kept the first of two different judgements of one pair in a list-form reply (an attack edge, and so a clash, from a reply that also called the pair a support), so its earlier items may hold relations this lexcase refuses (asked again once)',
    lacks: absent,
  },
  {
    path: ['scoresReading'],
    what: "how an argument-scores reply is read: an older lexcase kept the first of two different scores of one argument in a list-form reply (s1 0.9, then s1 0.1, read as 0.9), so its earlier items' claim strengths and verdicts may rest on scores this lexcase refuses (asked again once)",
    lacks: absent,
  },
  {
    path: ['clashWinnerReading'],
    what: 'how a clash\'s winner is read: an older lexcase took only "A" and "B" exactly, and failed the clash step of an item whose expert answered "Argument A" or "B." (after a retry), so the items it failed may differ from what this lexcase would decide',
    lacks: absent,
  },
  {
    path: ['factorMentionReading'],
    what: 'how the Factor Distiller\'s factor strings are read: an older lexcase read a string naming several factors ("F4 Agreed-not-to-disclose (P), F6 Security-measures (P)") as its first id alone, so its earlier triples may count fewer used factors (Rec_U) and hallucinations (Acc_H) than this lexcase would',
    // recorded on 2026-12-01 before a bare factor name beside an id counted
    lacks: (before, after) => absent(before, after) || isOlderReading(RECORDED_READINGS.factorMentionReading, before, after),
    olderWhat:
      'how the Factor Distiller\'s factor strings are read: the lexcase that recorded it (2026-12-01) read a bare factor name beside an id ("F4 Agreed-not-to-disclose (P), Security-measures (P)") as the id alone (F4), and one recorded before 2026-12-05 counted a placeholder for no factor ("", "None", "N/A") as a hallucinated factor, so its earlier triples may count fewer used factors (Rec_U), and more or fewer hallucinations (Acc_H), than this lexcase would',
  },
  {
    path: ['polisherReading'],
    what: "how the Argument Polisher's reply is read: an older lexcase read a reply that left out revision_needed as no revision (the ply was never revised) and kept a draft whose polished_argument was empty without counting it, so its earlier triples may hold plies this lexcase would revise, refuse or count (metrics unpolishedPlies)",
    lacks: absent,
  },
  {
    path: ['model'],
    what: "the model a library call was given (createChatModel's settings): an older lexcase recorded none for a run given `llm` without `model`, so this resume cannot check that its earlier items were made with the same model, endpoint and sampling",
    // the command always recorded its model; a library call given a factory model alone recorded null (CASE, MAD) or none (ACAL)
    lacks: (before, after) => (before === undefined || before === null) && after !== undefined && after !== null,
  },
  {
    runner: true,
    path: ['replyReading'],
    what: "how replies are read: an older lexcase took a JSON object inside a reasoning model's <think> block for the answer, so items it ran with such a model may have been scored on a draft",
    // recorded before 2026-12-01, when a <thinking> block, a Harmony analysis channel and a reply with two different objects were read for their first object
    // and before 2026-12-02, when a tool call sent twice in one reply ran twice
    lacks: (before, after) => absent(before, after) || isOlderReading(RECORDED_READINGS.replyReading, before, after),
    olderWhat:
      'how replies are read: the lexcase that recorded it (before 2026-12-02) ran a tool call a reply sent twice (same tool and arguments) twice, so a CASE advocate scored the passages it returned twice and counted two searches; one from before 2026-12-01 took a JSON object inside a <thinking> block or a gpt-oss Harmony analysis channel for the answer, and the first of two different objects in one reply (a draft, then a revision), and took a tool call whose arguments came as a JSON object for a malformed call that never ran (a search of a CASE advocate lost), and kept a 3-ply ply whose reply held nothing besides its reasoning (cut off inside it) as an empty ply that was scored, so items it ran with such a model may have been scored on a draft this lexcase drops or refuses, or on fewer searches',
  },
  {
    runner: true,
    path: ['usageReading'],
    what: "how a reply's token usage is read: an older lexcase took prompt + completion for the total where the endpoint reported a total_tokens above it (a thinking model's reasoning, as gateways in front of Gemini send it), so its earlier items' token totals may lack that excess, uncounted (tokens.totalAbove), while the items this resume runs count it",
    // recorded before 2026-12-05 with the older value: a total_tokens below prompt + completion taken as the total,
    // input_tokens/output_tokens read as a total with no split
    lacks: (before, after) => absent(before, after) || isOlderReading(RECORDED_READINGS.usageReading, before, after),
    olderWhat:
      "how a reply's token usage is read: the lexcase that recorded it (before 2026-12-05) took a total_tokens below prompt + completion for the total, so its earlier items' per-step and per-stage tallies and a --max-tokens budget counted less than their input + output, and read usage sent as input_tokens/output_tokens as a total with no input/output split (or as no usage), so its earlier items' input and output may be 0 where this resume's items count them",
  },
  {
    runner: true,
    path: ['itemCounts'],
    what: "what each item's line counts (eval/item-counts.ts): an older lexcase counted neither an item's dense searches cut to the model's tokens (denseSearches) nor replies whose text named another answer than the one read (tokens.textOtherAnswer), so report.md counts them over the items this lexcase runs, and says how many of the older lexcase's lines are still in the run, not counted (its failed ones kept as failed named as such)",
    lacks: absent,
    // recorded on 2026-12-02 with textOtherAnswer described as "forced-call replies": the same two fields counted
    sameAs: [ITEM_COUNTS_BEFORE_WIDENED],
  },
  {
    runner: true,
    path: ['textOtherAnswerReading'],
    what: 'what tokens.textOtherAnswer counts (core/llm/text-beside-call.ts): an older lexcase counted only a forced call\'s text naming another option letter, not a Yes/No answer\'s ("Answer: No" beside {"decision": "Yes"}) nor a reasoning field or a json_schema or prompt mode reply\'s prose naming another answer than its answer field, so report.md counts those for the items this resume runs only, and says how many earlier items were not counted so',
    // recorded on 2026-12-02 before the schema's declared fields were read and a condition cut by a set-off clause named none
    lacks: (before, after) => absent(before, after) || isOlderReading(NAMED_ANSWER_READINGS.textOtherAnswerReading, before, after),
    olderWhat:
      'what tokens.textOtherAnswer counts (core/llm/text-beside-call.ts): the lexcase that recorded it (2026-12-02) read, before that day\'s fifth change, the fields answer, vote, verdict, decision and reasoning, rationale, explanation, justification whatever the schema declared (a system whose answer field is choice or holding was never checked, a reasoning field named analysis never read), and counted a letter under a condition cut by a set-off clause ("If, as the buyer argues, the answer is B, …") or, until the sixth change of 2026-12-02, in another party\'s reported position ("The seller argues that the answer is B") as named, until the seventh counted "The court held that the answer is B" and "The answer is B, but only if …" and not "The answer, in my view, is B" beside C, and until 2026-12-03 not "This analysis concludes that the answer is B" beside C, so its earlier items may count replies this lexcase does not, and miss ones it counts; report.md counts by this reading for the items this resume runs only, and says how many earlier items were not counted so',
  },
  {
    runner: true,
    path: ['seedDerivation'],
    what: "how the items' seeded draws follow from the seed: an older lexcase drew them with FNV-1a alone (they depended only on whether the seed was odd or even), so the items this resume runs are drawn otherwise than the earlier ones",
    lacks: absent,
  },
  {
    path: ['passageChars'],
    what: 'the characters of each evidence passage a prompt shows',
    // CASE's limits never changed; ACAL showed 700 before it had --passage-chars
    lacks: (before, after, old) => absent(before, after) && (!String(old.system).startsWith('acal') || after === 700),
    differed: 'an older lexcase, which did not record it, showed 700 characters of each passage',
  },
];

/** The value at `path` in `config`; `parent`: whether everything above it is an object there. */
function at(config: Record<string, unknown>, path: string[]): { parent: boolean; value: unknown } {
  let o: unknown = config;
  for (const k of path.slice(0, -1)) {
    if (!isObject(o)) return { parent: false, value: undefined };
    o = o[k];
  }
  return isObject(o) ? { parent: true, value: o[path[path.length - 1]] } : { parent: false, value: undefined };
}

/** `config` with `value` set at `path` (copies along the path; `config` itself is not changed). */
function setAt(config: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const [k, ...rest] = path;
  return { ...config, [k]: rest.length ? setAt(config[k] as Record<string, unknown>, rest, value) : value };
}

/**
 * The fields a run's config may lack for its lexcase's age: all of them in a run of a lexcase system,
 * only the runner's own (seedDerivation, itemCounts, replyReading, usageReading) in a run of a system of the caller's own
 * (`lexcaseFields: false`), whose `prompts` or `dataFiles` are its own fields — before, a user's config
 * that added its own `prompts` resumed with "written by an older lexcase and does not record prompts".
 */
const addedFields = (o: { lexcaseFields?: boolean }) => (o.lexcaseFields === false ? ADDED.filter((f) => f.runner) : ADDED);

/**
 * `before` (a recorded config) with the fields it does not record taken from `after` (the new
 * run's), and those fields' keys (dotted paths) and descriptions; `before` itself is not changed.
 */
export function withUnrecorded(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  o: { lexcaseFields?: boolean } = {},
): { config: Record<string, unknown>; unrecorded: Unrecorded[] } {
  const fields = addedFields(o);
  const same = fields.filter((f) => {
    const b = at(before, f.path);
    const a = at(after, f.path);
    return b.parent && a.parent && b.value !== a.value && f.sameAs?.includes(b.value as string);
  });
  const recorded = same.reduce((c, f) => setAt(c, f.path, at(after, f.path).value), before);
  const unrecorded = fields.filter((f) => {
    const b = at(recorded, f.path);
    const a = at(after, f.path);
    return b.parent && a.parent && f.lacks(b.value, a.value, recorded);
  });
  if (!unrecorded.length) return { config: recorded, unrecorded: [] };
  return {
    config: unrecorded.reduce((c, f) => setAt(c, f.path, at(after, f.path).value), recorded),
    unrecorded: unrecorded.map(({ path, what, olderWhat }) =>
      olderWhat && at(recorded, path).value !== undefined ? { key: path.join('.'), what: olderWhat, older: true } : { key: path.join('.'), what },
    ),
  };
}

/** A field a recorded config does not record, or (`older`) records with an older value, for the warning. */
export interface Unrecorded {
  key: string;
  what: string;
  older?: true;
}

/**
 * The warning's clause on `unrecorded`: "does not record a (…), b (…)", "records an older c (…)", or
 * both joined by "and" (before, an older recorded value, optionLetterReading's, was said as "does not record").
 */
export function unrecordedText(unrecorded: readonly Unrecorded[]): string {
  const list = (us: readonly Unrecorded[]) => us.map((u) => `${u.key} (${u.what})`).join(', ');
  const missing = unrecorded.filter((u) => !u.older);
  const older = unrecorded.filter((u) => u.older);
  return [missing.length ? `does not record ${list(missing)}` : '', older.length ? `records an older ${list(older)}` : ''].filter(Boolean).join(' and ');
}

/**
 * Why `key`, which an older lexcase did not record (or recorded with an older value), differs for
 * this old config (the refusal's reason), if known; a field inside `key` (retriever.scoreDigits) is
 * the reason where the old config lacks it and the new one (`after`) records it.
 */
export function unrecordedDifference(
  key: string,
  before: Record<string, unknown>,
  after?: Record<string, unknown>,
  o: { lexcaseFields?: boolean } = {},
): string | undefined {
  const fields = addedFields(o);
  const f = fields.find((x) => x.path.join('.') === key);
  if (f) return before[key] === undefined ? f.differed : f.older?.[String(before[key])];
  const inner = fields.find(
    (x) => x.path.length > 1 && x.path[0] === key && x.differed && after && at(before, x.path).value === undefined && at(after, x.path).value !== undefined,
  );
  return inner?.differed;
}
