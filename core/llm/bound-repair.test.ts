/**
 * Numbers outside their schema's bounds (a server that ignores minimum/maximum, as llama.cpp and
 * Ollama do) are clamped to the bound and counted, never an item lost: the walk over the sent
 * schema, and invokeStructured against a local server answering ACAL's score schema with scores
 * of 7 and -3 (one request, no re-ask, the repair counted in the item's tally and the exchange).
 */
import { HumanMessage } from '@langchain/core/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { scoresSchema } from '../../agents/acal/llm/score-arguments.js';
import { llmConfigSchema } from '../config.js';
import { createChatModel } from './factory.js';
import { RepairTally, repairBounds, withRepairTally } from './bound-repair.js';
import { ExchangeLog, withExchangeLog } from './record-replay.js';
import { invokeStructured } from './structured.js';
import { jsonSchemaFor } from './json-schema.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('repairBounds: numbers clamped to the inclusive bound they crossed, along the sent schema', () => {
  it('ACAL scores: 7 → 1 and -3 → 0.1, an in-range score untouched; each repair names its path and field', () => {
    const schema = jsonSchemaFor(scoresSchema(['s1', 's2', 's3']));
    const r = repairBounds({ scores: { s1: { score: 7, note: 'a' }, s2: { score: -3, note: 'b' }, s3: { score: 0.5, note: 'c' } } }, schema);
    expect(r.value).toEqual({ scores: { s1: { score: 1, note: 'a' }, s2: { score: 0.1, note: 'b' }, s3: { score: 0.5, note: 'c' } } });
    expect(r.repairs).toEqual([
      { path: 'scores.s1.score', field: 'score', from: 7, to: 1 },
      { path: 'scores.s2.score', field: 'score', from: -3, to: 0.1 },
    ]);
  });

  it('through arrays, anyOf [number, null] and $ref; exclusive bounds and in-range values are left alone', () => {
    const schema = {
      type: 'object',
      properties: {
        xs: { type: 'array', items: { $ref: '#/$defs/pct' } },
        k: { anyOf: [{ type: 'integer', minimum: 1, maximum: 50 }, { type: 'null' }] },
        e: { type: 'number', exclusiveMinimum: 0 },
      },
      $defs: { pct: { type: 'number', minimum: 0, maximum: 100 } },
    };
    const r = repairBounds({ xs: [50, 120, -1], k: 999, e: -5 }, schema);
    expect(r.value).toEqual({ xs: [50, 100, 0], k: 50, e: -5 });
    expect(r.repairs.map((x) => `${x.path}:${x.field}`)).toEqual(['xs.1:xs', 'xs.2:xs', 'k:k']);
    expect(repairBounds({ xs: [1], k: null, e: 1 }, schema)).toEqual({ value: { xs: [1], k: null, e: 1 }, repairs: [] });
  });
});

describe('invokeStructured against a server that ignores minimum/maximum', () => {
  it('ACAL scores out of [0.1, 1] are clamped on the first reply (no re-ask), counted per field and marked on the exchange', async () => {
    srv = await startScriptedServer([{ json: { scores: { s1: { score: 7, note: 'strong' }, s2: { score: -3, note: 'weak' } } } }]);
    const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 5000 }));
    const tally = new RepairTally();
    const xlog = new ExchangeLog('q1');
    const r = await withExchangeLog(xlog, () =>
      withRepairTally(tally, () => invokeStructured(llm, [new HumanMessage('score')], scoresSchema(['s1', 's2']), { what: 'argument strength scores' })),
    );
    expect(r.value.scores).toEqual({ s1: { score: 1, note: 'strong' }, s2: { score: 0.1, note: 'weak' } });
    expect(r.attempts).toBe(1);
    expect(srv.requests).toHaveLength(1);
    expect(r.repaired).toEqual(['scores.s1.score 7 → 1', 'scores.s2.score -3 → 0.1']);
    expect(tally.toRecord()).toEqual({ 'argument strength scores: score': 2 });
    expect(xlog.recorded[0].repaired).toEqual(r.repaired);
    expect(xlog.recorded[0].invalid).toBeUndefined();
  });

  it('a reply wrong in another way as well is re-asked, not clamped into a pass', async () => {
    const schema = z.object({ vote: z.enum(['A', 'B']), confidence: z.number().min(0).max(1) });
    srv = await startScriptedServer([{ json: { vote: 'Z', confidence: 5 } }, { json: { vote: 'A', confidence: 0.4 } }]);
    const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 5000 }));
    const tally = new RepairTally();
    const r = await withRepairTally(tally, () => invokeStructured(llm, [new HumanMessage('vote')], schema, { what: 'vote' }));
    expect(r.value).toEqual({ vote: 'A', confidence: 0.4 });
    expect(r.attempts).toBe(2);
    expect(tally.toRecord()).toBeUndefined();
  });
});
