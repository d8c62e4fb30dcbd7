/**
 * Issue 37, item 2: concurrent `lexcase acal contest` on one item, through the built CLI as users
 * run it. Eight adds at once all exited 0 and printed revision 1; the audit log held 8 entries with
 * the same revision and the graph kept 1 to 6 of the 8 arguments. Now each contest reads, changes
 * and saves under one lock with a compare-and-set on the revision (agents/acal/contest/contest.ts):
 * every add lands on its own revision, or a contest fails with a non-zero exit and writes nothing.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withResult } from '../../../agents/acal/graph/recompute.js';
import { loadSampleGraph } from '../../../agents/acal/graph/sample-graph.js';
import { auditPath, graphPath, readAudit, readGraph, writeGraph } from '../../../agents/acal/graph/store.js';
import { ensureBuilt, lexcase } from '../../../tests/support/spawn-cli.js';

const ITEM = 'hearsay-train-1';
let root: string;
beforeAll(async () => {
  await ensureBuilt();
  root = mkdtempSync(join(tmpdir(), 'acal-concurrent-'));
}, 300_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

function runDir(name: string): string {
  const d = join(root, name);
  mkdirSync(d);
  writeGraph(d, withResult(loadSampleGraph()));
  return d;
}

const add = (dir: string, id: string, extra: string[] = []) =>
  lexcase([
    '--json',
    'acal',
    'contest',
    dir,
    '--item',
    ITEM,
    '--action',
    'add',
    '--id',
    id,
    '--side',
    'attack',
    '--base',
    '0.5',
    '--text',
    `Offered only to show notice (${id}).`,
    '--who',
    id,
    ...extra,
  ]);

describe('lexcase acal contest, eight at once on one item (issue 37, item 2)', () => {
  it('every add lands: revisions 1..8 each printed once, 8 audit entries 1..8, all 8 arguments kept, no lock or temp file left', async () => {
    const dir = runDir('eight');
    const start = readGraph(dir, ITEM);
    const ids = Array.from({ length: 8 }, (_, i) => `x${i + 1}`);
    const rs = await Promise.all(ids.map((id) => add(dir, id)));
    for (const r of rs) expect(r.code, r.stderr).toBe(0);
    const printed = rs.map((r) => JSON.parse(r.stdout).entry.revision as number);
    expect([...printed].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]); // before: [1,1,1,1,1,1,1,1]
    const g = readGraph(dir, ITEM);
    expect(g.revision).toBe(start.revision + 8);
    expect(
      g.arguments
        .map((a) => a.id)
        .filter((id) => ids.includes(id))
        .sort(),
    ).toEqual(ids); // before: 1 to 6 of them
    const audit = readAudit(dir, ITEM) as unknown as { revision: number; who: string; action: { id: string } }[];
    expect(audit.map((e) => e.revision)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // each audit entry is the add its process printed
    for (const [i, r] of rs.entries()) expect(audit.find((e) => e.revision === printed[i])!.action.id).toBe(ids[i]);
    expect(readdirSync(join(dir, 'acal')).sort()).toEqual(['audit.jsonl', `${ITEM}.graph.json`]);
  }, 300_000);

  it('--expect-revision: an action meant for another revision is REVISION_CONFLICT, exit 1, nothing written', async () => {
    const dir = runDir('cas');
    expect((await add(dir, 'h1')).code).toBe(0);
    const before = { graph: readFileSync(graphPath(dir, ITEM)), audit: readFileSync(auditPath(dir)) };
    const stale = await add(dir, 'h2', ['--expect-revision', '0']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/is at revision 1, not 0: it was changed meanwhile; nothing was written/);
    expect(readFileSync(graphPath(dir, ITEM))).toEqual(before.graph);
    expect(readFileSync(auditPath(dir))).toEqual(before.audit);
    const current = await add(dir, 'h2', ['--expect-revision', '1']);
    expect(current.code, current.stderr).toBe(0);
    expect(JSON.parse(current.stdout).entry.revision).toBe(2);
  }, 120_000);

  it('an audit log that cannot be written: exit 1 and the graph is unchanged (before: the graph was saved, the entry lost)', async () => {
    const dir = runDir('audit-fails');
    const before = readFileSync(graphPath(dir, ITEM));
    mkdirSync(auditPath(dir)); // a directory where audit.jsonl goes: the append fails
    const r = await add(dir, 'h1');
    expect(r.code).toBe(1);
    expect(readFileSync(graphPath(dir, ITEM))).toEqual(before);
    expect(readdirSync(join(dir, 'acal')).sort()).toEqual(['audit.jsonl', `${ITEM}.graph.json`]); // no temp file, no lock
  }, 120_000);
});
