/**
 * An argument with empty text (audit: a schema-following server wrote "" for arguments of 9 of 12
 * items, whose saved graphs `lexcase acal show` and the explorer then refused — "arguments.5.text":
 * Too small — while each item counted as a success). The strict schema subset sent to the model
 * cannot require text (no minLength), so, as with a citation of an unknown id or a role named twice,
 * the reply is read leniently and what was dropped is counted: the empty argument leaves the graph
 * (the trace's `emptyArgumentsDropped`, the item's stepFailures), the graph saved reads back, and
 * writeGraph refuses any graph its own reader would refuse.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { runArena } from './arena.js';
import { graphPath, readGraph, writeGraph } from './graph/store.js';
import { createAcalSystem } from './system.js';
import { acalTask } from './tasks.js';
import { scriptedArena } from './test-support/scripted-arena.js';

let srv: ScriptedServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'lexcase-acal-empty-'));
  dirs.push(d);
  return d;
};

const caseText = 'On the issue of whether Rebecca was ill, the fact that Rebecca told Ronald that she was unwell.';
const userOf = (r: RecordedRequest) => String((r.body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')!.content);
const writer = (r: RecordedRequest) => (userOf(r).startsWith('TASK: write arguments') ? /as the (.*)\.\n/.exec(userOf(r))?.[1] : undefined);

/** The scripted arena, with the texts of some writers' arguments blanked: role → indexes of its arguments to blank. */
function blanking(blank: Record<string, number[]>) {
  const base = scriptedArena();
  return (req: RecordedRequest) => {
    const reply = base(req);
    const idx = blank[writer(req) ?? ''];
    if (!idx) return reply;
    const v = JSON.parse(reply.content!.replace(/^```json\n|\n```$/g, ''));
    for (const i of idx) v.arguments[i].text = i % 2 ? '' : '  ';
    return { content: JSON.stringify(v) };
  };
}

async function model(blank: Record<string, number[]>) {
  srv = await startScriptedServer(blanking(blank));
  return createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 5000 }));
}

describe('ACAL arguments written with empty text', () => {
  it('are dropped and counted; the graph saved reads back (before: saved with text "", refused by acal show and the explorer)', async () => {
    const llm = await model({ Prosecutor: [1] });
    const dir = tmp();
    const system = createAcalSystem({ task: 'hearsay', graphDir: dir });
    const ctx = { seed: 1, tools: [], retrievers: {}, llm, getPassage: async () => undefined, options: {} };
    const out = await system({ id: 'h1', text: caseText, label: 'Yes' }, ctx);
    expect(out.trace.emptyArgumentsDropped).toBe(1);
    expect(out.stepFailures).toEqual({ 'argument with empty text': 1 });
    const g = readGraph(dir, 'h1');
    expect(g.arguments).toHaveLength(7);
    expect(g.arguments.every((a) => a.text.trim().length > 0)).toBe(true);
    expect(out.prediction).toBe(g.result!.verdict);
  });

  it('a writer left with no argument is not scored (no call with nothing to score); the rest of the arena runs', async () => {
    const llm = await model({ Prosecutor: [0, 1] });
    const { graph, trace } = await runArena(llm, { itemId: 'h2', task: acalTask('hearsay'), caseText, evidence: [] });
    expect(trace.emptyArgumentsDropped).toBe(2);
    expect(graph.arguments.map((a) => a.agent)).not.toContain('Prosecutor');
    const scoreCalls = srv!.requests.filter((r) => userOf(r).startsWith('TASK: score each argument'));
    expect(scoreCalls).toHaveLength(3);
    const dir = tmp();
    writeGraph(dir, graph);
    expect(readGraph(dir, 'h2').arguments).toHaveLength(6);
  });

  it('writeGraph refuses a graph its own reader would refuse, naming the field, and writes nothing', async () => {
    const llm = await model({});
    const { graph, trace } = await runArena(llm, { itemId: 'h3', task: acalTask('hearsay'), caseText, evidence: [] });
    expect(trace.emptyArgumentsDropped).toBe(0);
    const dir = tmp();
    const bad = { ...graph, arguments: graph.arguments.map((a, i) => (i === 5 ? { ...a, text: '' } : a)) };
    expect(() => writeGraph(dir, bad)).toThrow(/argument graph field "arguments\.5\.text"/);
    expect(existsSync(graphPath(dir, 'h3'))).toBe(false);
  });
});
