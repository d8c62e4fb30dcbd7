/**
 * The MCP stdio transport of `lexcase mcp`: newline-delimited JSON-RPC on stdin/stdout, like the
 * SDK's StdioServerTransport, except for a message that is too long or not JSON. The SDK's
 * transport closed itself on a line over 10 MiB (its read buffer's limit) and paused stdin: the
 * server then had nothing left to wait on and Node ended it with exit 13 and no word. Here a line
 * over `maxBytes` is skipped as it streams in (never held: only its first and last bytes are kept,
 * to find the request's id) and answered with a JSON-RPC error (-32600, "Invalid Request") saying
 * how long messages may be, with the request's id when it can be read, so the client's call fails
 * with that message; a line that is not JSON gets -32700 ("Parse error"). The server goes on.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The SDK's limit on one stdio message (10 MiB). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
const KEEP = 512;

type Id = string | number;

/** The top-level id of a JSON-RPC message of which only the first and last bytes are known. */
export function idOfCutMessage(head: string, tail: string): Id | null {
  // the id last (the SDK's clients write {method, params, jsonrpc, id}): `"id":X}` closing the message
  const last = /[,{]\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(tail);
  // the id first, or after "jsonrpc": {"jsonrpc":"2.0","id":X,…} / {"id":X,…}
  const first = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*[,}]/.exec(head);
  const raw = last?.[1] ?? first?.[1];
  if (raw === undefined) return null;
  try {
    return JSON.parse(raw) as Id;
  } catch {
    return null;
  }
}

export class LexcaseStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private parts: Buffer[] = [];
  private size = 0;
  /** Skipping a line over the limit: its first bytes, its last bytes so far, its length. */
  private skipping?: { head: string; tail: Buffer; bytes: number };
  private closed = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer | string) => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (;;) {
      const nl = buf.indexOf(0x0a);
      const piece = nl < 0 ? buf : buf.subarray(0, nl);
      this.take(piece);
      if (nl < 0) return;
      this.endLine();
      buf = buf.subarray(nl + 1);
    }
  };

  private readonly onError = (e: Error) => this.onerror?.(e);

  /** Add bytes of the current line: held while under the limit, else only counted. */
  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (!this.skipping && this.size + piece.length > this.maxBytes) {
      const held = Buffer.concat([...this.parts, piece]);
      this.skipping = { head: held.subarray(0, KEEP).toString('utf8'), tail: held.subarray(-KEEP), bytes: held.length };
      this.parts = [];
      this.size = 0;
      return;
    }
    if (this.skipping) {
      this.skipping.bytes += piece.length;
      this.skipping.tail = Buffer.concat([this.skipping.tail, piece]).subarray(-KEEP);
      return;
    }
    this.parts.push(piece);
    this.size += piece.length;
  }

  private endLine(): void {
    if (this.skipping) {
      const { head, tail, bytes } = this.skipping;
      this.skipping = undefined;
      const id = idOfCutMessage(head, tail.toString('utf8'));
      const mib = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MiB`;
      this.onerror?.(new Error(`a message of ${bytes} bytes is over the limit of ${this.maxBytes} bytes: not read, answered with an error`));
      void this.reply(
        id,
        -32600,
        `message too long: ${mib(bytes)} (${bytes} bytes) is over lexcase mcp's limit of ${mib(this.maxBytes)} on one stdio message; it was not read`,
      );
      return;
    }
    const line = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    if (!line.trim()) return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (e) {
      const why = (e as Error).message.split('\n')[0].slice(0, 200);
      this.onerror?.(new Error(`a line that is not a JSON-RPC message (${why}): answered with an error`));
      void this.reply(null, -32700, `not a JSON-RPC message: ${why}`);
      return;
    }
    this.onmessage?.(message);
  }

  private reply(id: Id | null, code: number, message: string): Promise<void> {
    return this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(JSON.stringify(message) + '\n')) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.parts = [];
    this.skipping = undefined;
    this.onclose?.();
  }
}
