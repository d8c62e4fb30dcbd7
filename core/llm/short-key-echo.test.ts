/**
 * An API key shorter than 8 characters (`abc`, `k9#Z2`, `hunter2`) is not masked by value in data
 * (core/secrets.ts: it could be a word of a passage), so an endpoint that quoted it in the body of a
 * failed request (`Incorrect API key provided: abc`, as gateways do) had it printed on stderr and
 * recorded in the item's error: the LLM client's failure, its preflight and the openai embedder's
 * request. Now the key lexcase sent is masked by its exact value in what that endpoint answers to a
 * failed request, whatever its length — and only there: a passage or path holding the same word is
 * written as it is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFaultyServer, type FaultyServer } from '../../tests/support/faulty-http-server.js';
import { llmConfigSchema, type LlmConfig } from '../config.js';
import { createOpenAIEmbedder } from '../../indexer/embed/openai.js';
import { redact, redactValue } from '../log.js';
import { clearSecrets } from '../secrets.js';
import { createChatModel } from './factory.js';
import { preflightLlm } from './preflight.js';

/** A gateway that answers every request 401, quoting the bearer token it got (JSON-escaped, as in a JSON body). */
const echoingGateway = () =>
  startFaultyServer((req, res) => {
    const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    res.writeHead(401, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        error: { message: `Incorrect API key provided: ${key}. You can find your API key at https://example.org/keys.`, type: 'invalid_request_error' },
      }),
    );
  });

const cfg = (url: string, apiKey: string): LlmConfig =>
  llmConfigSchema.parse({ baseUrl: url, model: 'm', apiKey, retryBaseMs: 1, retryMaxMs: 5, maxRetries: 0, timeoutMs: 5000, cacheDir: false });

let srv: FaultyServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  clearSecrets();
});

/** The key is nowhere in `text` as a token, and `***` stands where the server quoted it. */
function masked(text: string, key: string) {
  expect(text).toContain('Incorrect API key provided: ***.');
  expect(text).not.toMatch(new RegExp(`(^|[^\\w-])${key.replace(/[#]/g, '\\$&')}([^\\w-]|$)`));
}

describe('a short API key an endpoint quotes in a failed reply', () => {
  it('the LLM client: LLM_REQUEST_FAILED without the key', async () => {
    srv = await echoingGateway();
    for (const key of ['abc', 'k9#Z2']) {
      const e = await createChatModel(cfg(srv.url, key))
        .invoke('Is hearsay admissible?')
        .catch((x: Error) => x);
      expect(e).toMatchObject({ code: 'LLM_REQUEST_FAILED' });
      masked((e as Error).message, key);
    }
  });

  it("the LLM preflight: the key's refusal without the key", async () => {
    srv = await echoingGateway();
    const e = await preflightLlm(cfg(srv.url, 'hunter2')).catch((x: Error) => x);
    expect(e).toMatchObject({ code: 'LLM_UNAVAILABLE' });
    masked((e as Error).message, 'hunter2');
  });

  it('the openai embedder: EMBEDDER_UNAVAILABLE without the key', async () => {
    srv = await echoingGateway();
    const e = await createOpenAIEmbedder({ provider: 'openai', baseURL: srv.url, model: 'm', apiKey: 'abc', maxRetries: 0 }).catch((x: Error) => x);
    expect(e).toMatchObject({ code: 'EMBEDDER_UNAVAILABLE' });
    masked((e as Error).message, 'abc');
  });

  it('data holding the same word is written as it is', async () => {
    srv = await echoingGateway();
    await createOpenAIEmbedder({ provider: 'openai', baseURL: srv.url, model: 'm', apiKey: 'abc', maxRetries: 0 }).catch(() => undefined);
    const passage = { id: 'abc', text: 'The abc test of the cases: abc.' };
    expect(redactValue(passage)).toEqual(passage);
    expect(redact('run dir /tmp/abc/run')).toBe('run dir /tmp/abc/run');
  });
});
