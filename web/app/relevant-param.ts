/**
 * The relevant passages an evaluation row hands to the search view, in its URL (`#/search?…&rel=…`).
 * They are joined by a space: no passage id holds whitespace (corpora/passage-rules.ts) and no qrels
 * docid an ASCII space (trec_eval splits on it), while a comma is a legal id character. Joined by
 * commas, a topic whose relevant passage is "d,2" reached the search view as the two ids "d" and
 * "2": the view said "0 of the topic's 2 relevant passages in these hits" for a topic with one
 * relevant passage, found at rank 1.
 */

/** The value of the `rel` parameter for these ids (undefined when there are none, so qs leaves it out). */
export const relevantParam = (ids: Iterable<string>): string | undefined => {
  const list = [...ids];
  return list.length ? list.join(' ') : undefined;
};

/** The relevant ids a search URL carries. */
export const relevantIds = (params: URLSearchParams): string[] => (params.get('rel') ?? '').split(' ').filter(Boolean);
