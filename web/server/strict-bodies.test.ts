/**
 * The explorer's POST bodies refuse a field they do not take. /api/evidence and /api/acal/contest
 * (with its action) were non-strict zod objects: a misspelt field was dropped without a word and the
 * request ran with the default — {"agaisnt": true} argued for the hypothesis instead of against it,
 * {"expectRevison": 0} applied a contest to a graph that had moved on (the compare-and-set guard
 * gone), and an added argument's {"relation": […]} (for relations) was added with no relation, each
 * answered 200. Now each is a 400 naming the field and the fields taken, nothing run or written;
 * the bodies the explorer's own front end sends (web/app/search-view.ts, argument-view.ts) still 200.
 *
 * Data: the explorer fixtures (web/test-support/explorer-fixtures.ts): a real index of legal
 * passages and an ACAL run with the sample hearsay argument graph; the explorer runs on 127.0.0.1.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contestActionSchema } from '../../agents/acal/contest/actions.js';
import { readGraph } from '../../agents/acal/graph/store.js';
import { PACKAGE_ROOT } from '../../core/version.js';
import { makeExplorerFixtures, type ExplorerFixtures } from '../test-support/explorer-fixtures.js';
import { contestBodySchema } from './acal-api.js';
import { evidenceBodySchema } from './search-api.js';
import { startExplorer, type ExplorerServer } from './server.js';

let f: ExplorerFixtures;
let s: ExplorerServer;

beforeAll(async () => {
  f = await makeExplorerFixtures();
  s = await startExplorer({ index: f.index, runs: f.runs, port: 0 });
}, 120_000);
afterAll(async () => {
  await s?.close();
  await f?.cleanup();
});

const post = async (path: string, body: unknown) => {
  const res = await fetch(s.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

const HYPOTHESIS = 'A promise without consideration is not enforceable';
const FACTS = 'Ann promised Bob $500 as a gift and later refused to pay.';

describe('POST /api/evidence refuses an unknown field instead of running with the default', () => {
  it('"agaisnt" (for against) and "limt" are 400 naming the field; the front end\'s body is 200', async () => {
    const typo = await post('/api/evidence', { hypothesis: HYPOTHESIS, facts: FACTS, agaisnt: true, k: 3 });
    expect(typo.status).toBe(400);
    expect(typo.json.error).toBe('evidence: unknown field "agaisnt"; did you mean "against"? evidence takes {hypothesis, facts, against, k, mode}');
    const limit = await post('/api/evidence', { hypothesis: HYPOTHESIS, limt: 5 });
    expect(limit.status).toBe(400);
    expect(limit.json.error).toContain('evidence: unknown field "limt"');
    // what web/app/search-view.ts sends
    const ok = await post('/api/evidence', { hypothesis: HYPOTHESIS, facts: FACTS, against: true, k: 3, mode: 'offline' });
    expect(ok.status).toBe(200);
    expect(ok.json.stance).toBe('against');
    expect(ok.json.evidence).toHaveLength(3);
  });
});

describe('POST /api/acal/contest refuses an unknown field, in the body or its action, and writes nothing', () => {
  it('"expectRevison" (the revision guard) and an action\'s "relation" are 400 naming the field; graph and audit untouched; the front end\'s bodies are 200', async () => {
    const runDir = join(f.runs, f.acalRunId);
    const audit = () => {
      try {
        return readFileSync(join(runDir, 'acal', 'audit.jsonl'), 'utf8');
      } catch {
        return '';
      }
    };
    // what web/app/argument-view.ts sends: {run, item, action}
    const ok = await post('/api/acal/contest', { run: f.acalRunId, item: f.acalItem, action: { type: 'reject', argument: 's1' } });
    expect(ok.status).toBe(200);
    expect(ok.json.graph.revision).toBe(1);
    const graphBefore = JSON.stringify(readGraph(runDir, f.acalItem));
    const auditBefore = audit();

    const stale = await post('/api/acal/contest', { run: f.acalRunId, item: f.acalItem, action: { type: 'reject', argument: 'a1' }, expectRevison: 0 });
    expect(stale.status).toBe(400);
    expect(stale.json.error).toBe(
      'contest: unknown field "expectRevison"; did you mean "expectRevision"? contest takes {run, item, action, who, expectRevision}',
    );
    const relation = await post('/api/acal/contest', {
      run: f.acalRunId,
      item: f.acalItem,
      action: { type: 'add', side: 'attack', text: 'Offered only to show her state of mind.', base: 0.5, relation: [{ kind: 'attack', to: 's2' }] },
    });
    expect(relation.status).toBe(400);
    expect(relation.json.error).toBe(
      'contest: unknown field "action.relation"; did you mean "relations"? contest takes action.{type, id, side, text, base, agent, citedPassageIds, relations}',
    );
    expect(JSON.stringify(readGraph(runDir, f.acalItem))).toBe(graphBefore);
    expect(audit()).toBe(auditBefore);

    const added = await post('/api/acal/contest', {
      run: f.acalRunId,
      item: f.acalItem,
      action: { type: 'add', side: 'attack', text: 'Offered only to show her state of mind.', base: 0.5, relations: [{ kind: 'attack', to: 's2' }] },
    });
    expect(added.status).toBe(200);
    expect(added.json.graph.revision).toBe(2);
  });
});

/** The top-level field names of the object literal that starts at `text[open]` ('{'), shorthand included. */
function literalKeys(text: string, open: number): string[] {
  const keys: string[] = [];
  let depth = 0;
  let seg = '';
  let quote = '';
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote && text[i - 1] !== '\\') quote = '';
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if ('{[('.includes(c)) depth++;
    else if ('}])'.includes(c)) depth--;
    if (depth === 1 && c === ',') {
      keys.push(seg);
      seg = '';
    } else if (depth >= 1 && !(depth === 1 && c === '{' && i === open)) seg += c;
    if (depth === 0) {
      keys.push(seg);
      break;
    }
  }
  return keys.map((k) => /^\s*(\w+)/.exec(k)?.[1] ?? '').filter(Boolean);
}
const calls = (file: string, marker: string) => {
  const text = readFileSync(join(PACKAGE_ROOT, 'web', 'app', file), 'utf8');
  const out: string[][] = [];
  for (let i = text.indexOf(marker); i >= 0; i = text.indexOf(marker, i + 1)) out.push(literalKeys(text, text.indexOf('{', i)));
  return out;
};

describe("the explorer's own front end sends only fields the strict bodies take", () => {
  it('web/app: the /api/evidence body, the /api/acal/contest body and each contest action it sends', () => {
    const evidence = calls('search-view.ts', "api('/api/evidence',");
    expect(evidence).toEqual([['hypothesis', 'facts', 'against', 'k', 'mode']]);
    for (const keys of evidence) for (const k of keys) expect(Object.keys(evidenceBodySchema.shape)).toContain(k);
    const contest = calls('argument-view.ts', "('/api/acal/contest',");
    expect(contest).toEqual([['run', 'item', 'action']]);
    for (const k of contest[0]) expect(Object.keys(contestBodySchema.shape)).toContain(k);
    const text = readFileSync(join(PACKAGE_ROOT, 'web', 'app', 'argument-view.ts'), 'utf8');
    const actions = calls('argument-view.ts', 'send({').map((keys, n) => {
      const at = [...text.matchAll(/send\(\{ type: '([a-z-]+)'/g)][n];
      return { type: at[1], keys };
    });
    expect(actions.map((a) => a.type)).toEqual(['accept', 'reject', 'edit', 'edit', 'set-base', 'add', 'set-relation']);
    for (const { type, keys } of actions) {
      const option = contestActionSchema.options.find((o) => o.shape.type.value === type)!;
      for (const k of keys) expect(Object.keys(option.shape), `${type}: ${k}`).toContain(k);
    }
  });
});
