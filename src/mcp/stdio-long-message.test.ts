/**
 * Issue 37, item 15: one stdio MCP message over 10 MB killed `lexcase mcp` (exit 13, no message):
 * the SDK's stdio transport closed itself at its 10 MiB read buffer and paused stdin, leaving the
 * server nothing to wait on. Now (./stdio-transport.ts) the message is skipped as it streams in,
 * answered with a JSON-RPC error the client's call gets (-32600, naming the limit), one line goes
 * to stderr, and the server answers the next call. The BUILT CLI over stdio, driven by the SDK's
 * own Client; the message is an 11 MB `search` query.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, lexcase, STACK_TRACE } from '../../tests/support/spawn-cli.js';
import { stdioMcp } from './test-support/children.js';
import { idOfCutMessage } from './stdio-transport.js';

let dir: string;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-mcp-long-'));
  writeFileSync(
    join(dir, 'p.jsonl'),
    ['a contract needs offer, acceptance and consideration', 'negligence: duty, breach, causation, damages', 'hearsay is an out of court statement']
      .map((t, i) => JSON.stringify({ id: `p${i}`, text: t }))
      .join('\n') + '\n',
  );
  const b = await lexcase(['index', 'build', 'p.jsonl', '--out', 'ix'], { cwd: dir, timeoutMs: 120_000 });
  expect(b.code, b.stderr).toBe(0);
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lexcase mcp (stdio): a message over 10 MiB', () => {
  it('is answered with an error naming the limit, and the server goes on (before: exit 13, no word)', async () => {
    const m = await stdioMcp(['--index', join(dir, 'ix')], { cwd: dir });
    try {
      const long = m.client.callTool({ name: 'search', arguments: { index: 'ix', query: `consideration ${'x'.repeat(11 * 1024 * 1024)}` } });
      await expect(long).rejects.toThrow(
        /MCP error -32600: message too long: 11\.0 MiB \(\d+ bytes\) is over lexcase mcp's limit of 10\.0 MiB on one stdio message; it was not read/,
      );
      const r = await m.client.callTool({ name: 'search', arguments: { index: 'ix', query: 'consideration' } });
      expect(r.isError).toBeFalsy();
      expect((r.structuredContent as { hits: { id: string }[] }).hits[0].id).toBe('p0');
      expect(m.stderr()).toMatch(/^\[warn\] mcp: a message of \d+ bytes is over the limit of 10485760 bytes: not read, answered with an error$/m);
      expect(m.stderr()).not.toMatch(STACK_TRACE);
    } finally {
      await m.close();
    }
  }, 120_000);
});

describe('idOfCutMessage: the id of a message known by its first and last bytes', () => {
  it('finds a top-level id at the end (the SDK client) or at the start, never a nested one', () => {
    expect(idOfCutMessage('{"method":"tools/call","params":{"name":"search","arguments":{"query":"xxx', 'xxx"}},"jsonrpc":"2.0","id":7}')).toBe(7);
    expect(idOfCutMessage('{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"arguments":{"query":"xx', 'xxx"}}}')).toBe('a-1');
    expect(idOfCutMessage('{"method":"tools/call","params":{"arguments":{"id":"p1","q":"xx', 'xx","id":"p1"}}}')).toBeNull();
  });
});
