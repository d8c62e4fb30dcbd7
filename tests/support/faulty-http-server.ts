/**
 * A raw HTTP server on 127.0.0.1 (port chosen by the OS) whose every reply a test writes by hand:
 * the misbehaviours an OpenAI-compatible endpoint, proxy or network can show and a scripted
 * server would not — headers then silence, a body that drips a byte at a time, an SSE stream that
 * never ends, an empty or HTML `200`. `handler(req, res, i)` gets the i-th request (0-based, body
 * read) and answers however it likes; `requests` counts them. `close()` also ends open replies.
 * GET …/models (the listing lexcase's preflight and response cache ask once per process:
 * core/llm/server-identity.ts) is answered 404, as by a server without one, and is neither counted
 * nor handed to `handler`: the misbehaviours under test are the chat requests'.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FaultyHandler = (req: IncomingMessage & { text: string }, res: ServerResponse, i: number) => void | Promise<void>;

export interface FaultyServer {
  /** Base URL for the OpenAI client, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  readonly requests: number;
  close(): Promise<void>;
}

/** A valid chat completion answering `content`, as the body of a 200. */
export function completionJson(content: string): string {
  return JSON.stringify({
    id: 'chatcmpl-faulty',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'faulty',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
    usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
  });
}

export async function startFaultyServer(handler: FaultyHandler): Promise<FaultyServer> {
  let requests = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET' && /\/models(\?|$)/.test(req.url ?? '')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'faulty server: no model list', type: 'invalid_request_error' } }));
        return;
      }
      const i = requests++;
      void handler(Object.assign(req, { text: Buffer.concat(chunks).toString('utf8') }), res, i);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Write `text` one byte every `everyMs` (never ending when `text` is shorter than the promised length). */
export function drip(res: ServerResponse, text: string, everyMs: number): void {
  let at = 0;
  const t = setInterval(() => {
    if (res.destroyed || at >= text.length) return clearInterval(t);
    res.write(text[at++]);
  }, everyMs);
  res.on('close', () => clearInterval(t));
}
