/**
 * The labels of the offline advocates' evidence selection, as traces record it (`evidenceSelection`)
 * and the metrics print it (metrics.ts): the learned selector, with the dense and phrase signals
 * where the index has the dense part they need (case-offline-system.ts chooseSelector), or the query
 * plan's top k.
 */
export const LEARNED_SELECTOR_LABEL = 'learned evidence selector (trained on the train split)';
export const SIGNALS_SUFFIX = ', with dense and phrase signals';

/**
 * Why a learned selection ran without the dense and phrase signals, said beside its label: the model
 * it used follows from the index (`.lexcase/demo/index` without --index, whose dense part `lexcase
 * demo` adds), and the two models' figures differ.
 */
export const NO_SIGNALS_NOTE =
  'without the dense and phrase signals: the index has no exact use-lite dense part (`lexcase index dense <index> --prebuilt` adds one to an index of the default corpus, as `lexcase demo` does)';
