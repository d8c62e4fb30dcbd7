/**
 * `lexcase --json run acal|emar|mad|threeply` give the run's requests counted apart from its LLM calls
 * (`requests`: refused after retries, failed attempts sent again, cut off, under way at an interrupt),
 * the numbers the CLI's counts line says ("1 request refused …; 1 failed attempt sent again …").
 * Before, the JSON had `tokens` alone: a script read 11 calls for 12 items and nothing of the request
 * the server refused or the 500 that was sent again.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCutOffCount, runRefusedCount, runRetriedCount } from '../../../eval/run-counts.js';
import { runCli } from '../../../tests/support/run-cli.js';

let dir: string;
let server: Server;
let n = 0;

/** The least reply a JSON schema allows: an enum's first value, empty strings, arrays at their minItems, false, the minimum. */
function least(s: Record<string, unknown>): unknown {
  if (Array.isArray(s.anyOf)) return least(s.anyOf[0]);
  if (Array.isArray(s.enum)) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'object' || s.properties)
    return Object.fromEntries(Object.entries((s.properties ?? {}) as Record<string, Record<string, unknown>>).map(([k, v]) => [k, least(v)]));
  if (type === 'array') return Array.from({ length: Number(s.minItems ?? 0) }, () => least((s.items ?? {}) as Record<string, unknown>));
  if (type === 'number' || type === 'integer') return Number(s.minimum ?? 0);
  if (type === 'boolean') return false;
  return '';
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agents-requests-json-'));
  // request 1 fails with a 500 (sent again), request 3 is refused with a 400 (its item fails); every other reply is "No"
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url?.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model' }] }));
        return;
      }
      n++;
      if (n === 1 || n === 3) {
        res.writeHead(n === 1 ? 500 : 400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: n === 1 ? 'overloaded' : 'bad request' } }));
        return;
      }
      const schema = JSON.parse(body).response_format?.json_schema?.schema;
      const content = JSON.stringify(schema ? least(schema) : { answer: 'No' });
      const reply = {
        id: `r${n}`,
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 },
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  Object.assign(process.env, { LEXCASE_LLM_BASE_URL: url, LEXCASE_LLM_MODEL: 'm', LEXCASE_LLM_MAX_RETRIES: '2' });
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('run --json: the requests the counts line says', () => {
  it('acal sp: a refused request and a 500 sent again are in --json `requests`, as in results.jsonl and the counts line', async () => {
    n = 0;
    const out = join(dir, 'sp');
    const r = await runCli([
      '--json',
      'run',
      'acal',
      '--system',
      'sp',
      '--task',
      'hearsay',
      '--limit',
      '4',
      '--run-dir',
      out,
      '--iterations',
      '100',
      '--no-cache',
    ]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    const results = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(runRefusedCount(results)).toBe(1);
    expect(runRetriedCount(results)).toBe(1);
    expect(j.failed).toBe(1);
    expect(j.requests).toEqual({ cutOff: 0, refused: 1, retried: 1, underWay: { items: 0, requests: 0 } });
  });

  it.each([
    ['emar', []],
    ['mad', ['--rounds', '1']],
    ['threeply', []],
  ])("%s: --json `requests` counts the run's refused requests and failed attempts sent again", async (system, extra) => {
    n = 0;
    const out = join(dir, system);
    const r = await runCli(['--json', 'run', system, '--limit', '2', '--run-dir', out, '--no-cache', ...extra]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    const results = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(j.requests).toEqual({
      cutOff: runCutOffCount(results),
      refused: runRefusedCount(results),
      retried: runRetriedCount(results),
      underWay: { items: 0, requests: 0 },
    });
    expect(j.requests.refused).toBeGreaterThan(0);
  });
});
