/**
 * The life of one HTTP request in lexcase's servers (`serve --api`, `mcp --http`, the explorer):
 * when its connection closes before the reply is sent — the client gave up, or the server is
 * stopping (SIGINT/SIGTERM drop every open connection) — the work done for it is cancelled and
 * nothing is logged as a server fault. Before, both printed `Error: aborted` with a Node stack
 * trace (`readJsonBody` failing on the half-read body), and a find_evidence request kept calling
 * its LLM after the client and the server were gone, which held the stopped process alive.
 *
 *   const life = requestLife(req, res);
 *   try { …; await svc.findEvidence(input, life.signal) } catch (e) { if (life.gone(e)) return life.note('api', stopping); … }
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { log } from '../../core/log.js';

export interface RequestLife {
  /** Aborts when the connection closes before the reply is complete. */
  signal: AbortSignal;
  /** The request failed because its connection went away (the signal aborted, or the body read was cut off). */
  gone(e: unknown): boolean;
  /** One line for a request whose client went away (nothing when the server is stopping: it says so once). */
  note(server: string, stopping: boolean): void;
}

/** Node's error for a request body cut off by the connection closing ("aborted", ECONNRESET). */
export function isConnectionCut(e: unknown): boolean {
  const err = e as { code?: string; message?: string } | undefined;
  return err?.code === 'ECONNRESET' || err?.code === 'ERR_STREAM_PREMATURE_CLOSE' || err?.message === 'aborted';
}

export function requestLife(req: IncomingMessage, res: ServerResponse): RequestLife {
  const ac = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) ac.abort(Object.assign(new Error('the connection closed before the reply was sent'), { name: 'AbortError' }));
  });
  return {
    signal: ac.signal,
    gone: (e) => ac.signal.aborted || (isConnectionCut(e) && (req.destroyed || res.destroyed)),
    note(server, stopping) {
      if (!stopping)
        log.warn(
          `${server}: ${req.method} ${new URL(req.url ?? '/', 'http://localhost').pathname}: the client closed the connection before the reply; the request was cancelled`,
        );
    },
  };
}
