/**
 * The eval view's link to the search view carries a topic's relevant passages; the search view
 * counts and marks them ("1 of the topic's 1 relevant passage in these hits"). Ids with commas,
 * pipes, quotes and accents must arrive as they left: joined by commas, "d,2" arrived as "d" and "2".
 */
import { describe, expect, it } from 'vitest';
import { qs } from './api.js';
import { relevantIds, relevantParam } from './relevant-param.js';

/** The link the eval view writes, read back the way the search view reads its hash. */
const roundTrip = (ids: string[]) => {
  const href = `#/search?${qs({ q: 'contract breach damages', method: 'bm25', rel: relevantParam(ids) })}`;
  return relevantIds(new URLSearchParams(href.slice(href.indexOf('?') + 1)));
};

describe('relevant passages in a search link', () => {
  it('a relevant id with a comma stays one id: the topic has 1 relevant passage, not 2', () => {
    expect(roundTrip(['d,2'])).toEqual(['d,2']);
  });

  it('ids with pipes, quotes, ampersands, percent signs and NFC / NFD accents arrive as written', () => {
    const ids = ['d|1', 'd"5', 'a&b=c', '100%', 'café', 'cafe\u0301', 'Smith,v.Jones,123', 'd\u00a0x'];
    expect(roundTrip(ids)).toEqual(ids);
  });

  it('no relevant ids: no parameter, and none read back', () => {
    expect(relevantParam([])).toBeUndefined();
    expect(qs({ q: 'x', rel: relevantParam([]) })).toBe('q=x');
    expect(roundTrip([])).toEqual([]);
  });
});
