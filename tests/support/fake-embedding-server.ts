/**
 * An OpenAI-compatible embeddings endpoint on 127.0.0.1 for tests: POST /v1/embeddings answers each
 * input text with `vectorOf(text)`, in order, naming the model asked for in its reply, or `served`
 * when set (a server that embeds with the model it has loaded names that one). `env` holds the LEXCASE_EMBED_* variables that point
 * lexcase's `--embedder openai` at it.
 *
 *   const emb = await startFakeEmbeddingServer((t) => [1, t.length], 'letters');
 *   await runBuiltCli([...], { env: emb.env });  …  await emb.close();
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeEmbeddingServer {
  url: string;
  env: { LEXCASE_EMBED_BASE_URL: string; LEXCASE_EMBED_MODEL: string; LEXCASE_EMBED_API_KEY: string };
  /** The model name the replies give (default: the one asked for); settable while it runs. */
  served?: string;
  /** Replies without `index` fields on the vectors (some servers leave them out); settable while it runs. */
  omitIndex?: boolean;
  /** The vectors it answers with; settable while it runs (another model loaded). */
  vectorOf: (text: string) => number[];
  close(): Promise<void>;
}

export async function startFakeEmbeddingServer(vectorOf: (text: string) => number[], model = 'fake-embedder'): Promise<FakeEmbeddingServer> {
  let self: FakeEmbeddingServer | undefined;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const { input, model: asked } = JSON.parse(body) as { input: string | string[]; model: string };
      const texts = Array.isArray(input) ? input : [input];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          model: self?.served ?? asked,
          data: texts.map((t, index) => ({ object: 'embedding', ...(self?.omitIndex ? {} : { index }), embedding: (self?.vectorOf ?? vectorOf)(t) })),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  self = {
    url,
    env: { LEXCASE_EMBED_BASE_URL: url, LEXCASE_EMBED_MODEL: model, LEXCASE_EMBED_API_KEY: 'sk-test' },
    vectorOf,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  return self;
}
