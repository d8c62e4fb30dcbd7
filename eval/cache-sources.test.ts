/**
 * The sentence every surface gives of replies served from the response cache (eval/cache-sources.ts):
 * `lexcase evidence`, /v1/evidence, MCP find_evidence, the explorer, a run's last lines and report.md.
 * Replies served without a check against the model the server serves now — entries an older lexcase
 * wrote (no server identity), or a server that names no such model now — are counted in it.
 */
import { describe, expect, it } from 'vitest';
import { cacheAnswersText, cacheSourcesOf, cacheSourcesText, uncheckedCount } from './cache-sources.js';

const CHECKED = 'GET /models listed "local-model" (GET /models entry 40677462488c) when it was written, as now; its reply named model "qwen2-7b-q4.gguf"';
const NOT_NOW =
  'GET /models listed "local-model" (GET /models entry 40677462488c) when it was written (not checked now: the server listed no such model, or did not answer)';
const OLDER = 'no server identity recorded (an entry of an older lexcase, or a server that listed no such model); its reply named model "local-model"';
// a server's id is any string: one that reads like the checked form is still the unchecked entry it is
const TRICKY =
  'GET /models listed "a\\" (GET /models entry 000000000000) when it was written, as now" (GET /models entry 1234567890ab) when it was written (not checked now: the server listed no such model, or did not answer)';

describe('cached replies not checked against the model the server serves now', () => {
  it('are counted in the sentence: entries without an identity and entries the server names no model for now, not those checked', () => {
    expect(uncheckedCount([[CHECKED, 3]])).toBe(0);
    expect(
      uncheckedCount([
        [CHECKED, 3],
        [NOT_NOW, 1],
        [OLDER, 2],
        [TRICKY, 1],
      ]),
    ).toBe(4);
    expect(cacheAnswersText([[CHECKED, 3]], 3)).toBe(
      `3 of 3 LLM calls were answered from the response cache, not by the server at the endpoint: ${CHECKED} ×3 — --no-cache (or another LEXCASE_CACHE_DIR) asks the server again`,
    );
    expect(
      cacheAnswersText(
        [
          [CHECKED, 1],
          [OLDER, 2],
        ],
        4,
      ),
    ).toBe(
      `3 of 4 LLM calls were answered from the response cache, not by the server at the endpoint (2 of them not checked against the model the server serves now): ${CHECKED} ×1; ${OLDER} ×2 — --no-cache (or another LEXCASE_CACHE_DIR) asks the server again`,
    );
  });

  it("a run's line and report.md count them over results.jsonl (an older lexcase's entries in a Bar Exam run)", () => {
    const results = [
      { id: 'mbe_1', cacheSources: { [OLDER]: 2 }, tokens: { input: 0, output: 0, calls: 2 } },
      { id: 'mbe_2', cacheSources: { [CHECKED]: 1 }, tokens: { input: 0, output: 0, calls: 2 } },
    ];
    const { sources, calls } = cacheSourcesOf(results as never);
    expect(cacheSourcesText(sources, calls)).toMatch(
      /^3 of 4 LLM calls were answered from the response cache, not by the server at the endpoint \(2 of them not checked against the model the server serves now\): .*; counted in results\.jsonl \("cacheSources"\) and report\.md$/,
    );
  });
});
