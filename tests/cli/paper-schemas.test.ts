/**
 * Issue 36, items 4–6, as a user runs lexcase: the built CLI (`lexcase run <system>`) in a child
 * process, the endpoint from the environment, against scripted OpenAI-compatible servers on
 * 127.0.0.1 that reproduce each quirk:
 *  - a schema-following server that writes the least each schema allows (the fewest array items,
 *    the first enum member, "x" for a free string): it shows what a schema lets through — one
 *    cross-examination question for four debaters, one hypothesis, a one-agent team, "x" as a
 *    segment type the prompt lists three values for;
 *  - the same server ignoring maxItems once (six exploratory hypotheses), as llama.cpp and Ollama
 *    skip bounds;
 *  - a position-biased expert that always names argument "A" the winner of a clash;
 *  - a jury split 1–1–1 with no evidence on any side, so the tie survives the evidence score;
 *  - a Factor Analyst that abstains on the Defendant's ply only.
 * Every structured schema any of these runs sent is walked at the end: no decision key before its
 * reasoning key (tests/support/decision-order.ts).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decisionBeforeReasoning } from '../support/decision-order.js';
import {
  requestedSchema,
  schemaFollowing,
  startScriptedServer,
  type RecordedRequest,
  type ScriptReply,
  type ScriptedServer,
} from '../support/scripted-openai-server.js';
import { ensureBuilt, isolatedEnv, lexcase, STACK_TRACE } from '../support/spawn-cli.js';
import { sharedUserIndex } from './cli-fixtures.js';

let dir: string;
let idx: string;
const servers: ScriptedServer[] = [];
/** Every request of every server, for the key-order walk. */
const sent: { system: string; req: RecordedRequest }[] = [];

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-cli-paper-schemas-'));
  idx = (await sharedUserIndex(dir, { extra: 200 })).idx;
}, 600_000);

afterAll(async () => {
  for (const s of servers) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

type Script = (req: RecordedRequest) => ScriptReply;
const user = (r: RecordedRequest) => String([...r.body.messages].reverse().find((m: { role: string }) => m.role === 'user')?.content ?? '');
const system = (r: RecordedRequest) => String(r.body.messages[0]?.content ?? '');

/**
 * Array items made distinct — of an enum (a team of the first two roles, not the first role twice), and
 * free strings (two competing hypotheses, not one twice, which CASE counts as one and fails the item
 * with fewer than two): still the least the schema allows.
 */
function distinctItems(v: unknown, s: Record<string, any> | undefined): unknown {
  if (!s || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v) && s.items)
    return v.map((x, i) => {
      const it = s.items;
      if (Array.isArray(it.enum)) return it.enum[i % it.enum.length];
      if (typeof x === 'string') return i === 0 ? x : `${x} ${i + 1}`;
      if (x && typeof x === 'object' && it.properties)
        return Object.fromEntries(
          Object.entries(x).map(([k, y]) => [
            k,
            Array.isArray(it.properties[k]?.enum) ? it.properties[k].enum[i % it.properties[k].enum.length] : distinctItems(y, it.properties[k]),
          ]),
        );
      return distinctItems(x, it);
    });
  if (!Array.isArray(v) && s.properties) return Object.fromEntries(Object.entries(v).map(([k, y]) => [k, distinctItems(y, s.properties[k])]));
  return v;
}

/** The least each schema allows; prose where a request carries no schema (an agent loop's turn, a 3-ply draft). */
const minimal = (): Script =>
  schemaFollowing({ fill: (value, req) => distinctItems(value, requestedSchema(req)), unconstrained: () => ({ content: 'I have nothing to add.' }) });

async function serve(system: string, script: Script): Promise<ScriptedServer> {
  const srv = await startScriptedServer((req) => {
    sent.push({ system, req });
    return script(req);
  });
  servers.push(srv);
  return srv;
}

async function run(srv: ScriptedServer, args: string[], runDir: string): Promise<void> {
  const env = isolatedEnv({ LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_API_KEY: 'sk-test', LEXCASE_LLM_MAX_RETRIES: '0' });
  const r = await lexcase([...args, '--run-dir', runDir, '--no-cache'], { cwd: dir, env, timeoutMs: 300_000 });
  expect(r.code, r.stderr.slice(-3000)).toBe(0);
  expect(STACK_TRACE.test(r.stdout + r.stderr), r.stderr).toBe(false);
}

const results = (runDir: string) =>
  readFileSync(join(runDir, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: string; prediction: unknown; error?: string; stepFailures?: Record<string, number> });
const traces = (runDir: string): Record<string, any>[] =>
  readdirSync(join(runDir, 'traces'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(runDir, 'traces', f), 'utf8')));
const reportJson = (runDir: string) => JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8')) as { sections: Record<string, any> };
const repairs = (srv: ScriptedServer) => srv.requests.filter((r) => /Your reply could not be parsed/.test(JSON.stringify(r.body.messages)));

describe("the papers' cardinalities, as a user runs lexcase against a server that writes the least a schema allows (item 5)", () => {
  it('run mad --cross-examiner: the examiner questions every debater once (before: only debater A, 1 of 4)', async () => {
    const srv = await serve('mad', minimal());
    const runDir = join(dir, 'runs/mad-cross');
    await run(srv, ['run', 'mad', '--index', idx, '--limit', '2', '--rounds', '2', '--cross-examiner', '-k', '2'], runDir);
    expect(results(runDir).filter((r) => r.error)).toEqual([]);
    for (const t of traces(runDir)) {
      const debaters = (t.rounds.at(-1).briefs as { letter: string; error?: string }[]).filter((b) => !b.error).map((b) => b.letter);
      expect(debaters).toHaveLength(4);
      expect((t.crossExamination.questions as { letter: string }[]).map((q) => q.letter).sort()).toEqual(debaters.sort());
    }
  }, 300_000);

  it('run case --hypotheses exploratory: 2–4 hypotheses — one is not enough, six are refused and re-asked, never cut silently (before: 1, and 6 cut to 4)', async () => {
    let first = '';
    const base = minimal();
    const srv = await serve('case', (req) => {
      if (!/competing hypotheses/.test(user(req)) || /could not be parsed/.test(JSON.stringify(req.body.messages))) return base(req);
      first ||= user(req); // the first question's analyst ignores maxItems and proposes six
      return user(req) === first ? { json: { hypotheses: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] } } : base(req);
    });
    const runDir = join(dir, 'runs/case-exploratory');
    await run(srv, ['run', 'case', '--index', idx, '--limit', '2', '--hypotheses', 'exploratory', '--jurors', '3', '--max-steps', '2'], runDir);
    const ts = traces(runDir);
    expect(ts).toHaveLength(2);
    for (const t of ts) {
      expect(t.hypotheses.length).toBeGreaterThanOrEqual(2);
      expect(t.hypotheses.length).toBeLessThanOrEqual(4);
    }
    // the six were refused with the reason and asked again, once
    const asked = repairs(srv).filter((r) => /competing hypotheses/.test(JSON.stringify(r.body.messages)));
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(asked[0].body.messages)).toMatch(/hypotheses/);
    const sentSchema = requestedSchema(srv.requests.find((r) => /competing hypotheses/.test(user(r)))!)!;
    expect(sentSchema.properties.hypotheses).toMatchObject({ minItems: 2, maxItems: 4 });
  }, 300_000);

  it('run threeply: the Polisher\'s argument_segment_type is one of the three values its prompt lists (before: any string, "x")', async () => {
    const base = minimal();
    // the analyst finds every ply valid (its first enum member would abstain at once), so the Polisher runs
    const srv = await serve('threeply', (req) =>
      system(req).startsWith('You are a Factor Analyst') ? { json: { ...(base(req).json as object), analysis_outcome: 'VALID_ARGUMENT' } } : base(req),
    );
    const runDir = join(dir, 'runs/threeply-minimal');
    await run(srv, ['run', 'threeply', '--scenarios', 'arguable', '--n', '1'], runDir);
    const polished = traces(runDir).flatMap((t) =>
      (t.steps as { role: string; output: Record<string, unknown> }[]).filter((s) => s.role === 'polisher').map((s) => s.output),
    );
    expect(polished.length).toBeGreaterThan(0);
    for (const p of polished) {
      expect(["Plaintiff's Argument", "Defendant's Counterargument", "Plaintiff's Rebuttal"]).toContain(p.argument_segment_type);
      expect(['Accurate', 'Minor Inaccuracies', 'Major Inaccuracies']).toContain(p.accuracy_assessment);
    }
  }, 300_000);

  it('run emar: finishes against the least-allowed server (its schemas are walked below)', async () => {
    const srv = await serve('emar', minimal());
    const runDir = join(dir, 'runs/emar');
    await run(srv, ['run', 'emar', '--dataset', 'barexam', '--split', 'val', '--limit', '1', '--max-depth', '1'], runDir);
    expect(results(runDir)).toHaveLength(1);
    expect(traces(runDir)[0].presentation).toEqual([expect.objectContaining({ kind: 'judge positions', seed: expect.any(Number) })]);
  }, 300_000);
});

describe('seeded, recorded presentation orders and tie draws (item 4)', () => {
  it('run acal with an expert that always picks "A": the supporting argument is not always "A", the draw is recorded and counted in the report; teams of 2–3 (before: support shown as A in every clash, so support won all; teams of 1)', async () => {
    const base = minimal();
    const srv = await serve('acal', (req) => {
      const u = user(req);
      // every argument scored alike and every pair in conflict: every opposite-side pair is a clash
      if (u.startsWith('TASK: score each argument'))
        return { json: { scores: Object.fromEntries([...u.matchAll(/^\((\w+)\) \[/gm)].map((m) => [m[1], { note: 'alike', score: 0.5 }])) } };
      if (u.startsWith('TASK: classify the relation'))
        return { json: { relations: Object.fromEntries([...u.matchAll(/^PAIR (\S+)/gm)].map((m) => [m[1], { relation: 'attack', confidence: 0.9 }])) } };
      if (u.startsWith('TASK: resolve a clash')) return { json: { reason: 'A reads better', winner: 'A' } };
      return base(req);
    });
    const runDir = join(dir, 'runs/acal-clash');
    await run(srv, ['run', 'acal', '--task', 'hearsay', '--index', idx, '--limit', '2', '-k', '2', '--iterations', '100'], runDir);
    const ts = traces(runDir);
    for (const t of ts) {
      expect(t.teams.support.length).toBeGreaterThanOrEqual(2);
      expect(t.teams.attack.length).toBeGreaterThanOrEqual(2);
    }
    const clashes = ts.flatMap((t) => (t.presentation as { kind: string; order: string[]; seed: number }[]).filter((p) => p.kind === 'clash sides'));
    const supportFirst = clashes.filter((c) => c.order[0] === 'support').length;
    expect(clashes.length).toBeGreaterThanOrEqual(8);
    expect(supportFirst).toBeGreaterThan(0);
    expect(supportFirst).toBeLessThan(clashes.length);
    // "A" won every clash: the winners follow the draw, not the side
    const prompts = srv.requests.filter((r) => user(r).startsWith('TASK: resolve a clash'));
    expect(prompts.filter((r) => /^ARGUMENT A \(supports the claim\)/m.test(user(r)))).toHaveLength(supportFirst);
    // counted in the run's report
    expect(reportJson(runDir).sections.presentation['clash sides']).toEqual({
      draws: clashes.length,
      first: expect.objectContaining({ support: supportFirst, attack: clashes.length - supportFirst }),
    });
    expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toMatch(
      /\| clash sides +\| +\d+ \| attack \d+, support \d+|\| clash sides +\| +\d+ \| support \d+, attack \d+/,
    );
  }, 300_000);

  it('run case with a 1–1–1 jury and no evidence: the tie is broken by a seeded draw recorded with its seed, not always the lowest letter (before: A every time)', async () => {
    const votes = new Map<string, number>();
    const base = minimal();
    const srv = await serve('case', (req) => {
      if (!/juror on a panel/.test(system(req))) return base(req); // advocates: prose, no search, no evidence
      const key = user(req).slice(0, 200); // the item's case file: its 3 jurors vote A, B, C in turn
      const n = votes.get(key) ?? 0;
      votes.set(key, n + 1);
      return { json: { reasoning: 'split', vote: 'ABC'[n % 3] } };
    });
    const runDir = join(dir, 'runs/case-tie');
    await run(srv, ['run', 'case', '--index', idx, '--limit', '6', '--jurors', '3', '--max-steps', '1'], runDir);
    const ts = traces(runDir);
    expect(ts).toHaveLength(6);
    const ties = ts.map((t) => t.verdict.tieBreak);
    for (const tb of ties) {
      expect(tb).toMatchObject({ tied: ['A', 'B', 'C'], by: 'seeded-draw', draw: { kind: 'tie-break', seed: expect.any(Number) } });
      expect(tb.draw.order.slice().sort()).toEqual(['A', 'B', 'C']);
    }
    const answer = new Map(results(runDir).map((r) => [r.id, r.prediction]));
    const answers = ts.map((t) => answer.get(t.id));
    expect(answers).toEqual(ties.map((tb) => tb.draw.order[0]));
    expect(new Set(answers).size).toBeGreaterThan(1);
    // the jurors read the hypotheses in a seeded order, recorded; the report counts both
    const sections = reportJson(runDir).sections.presentation;
    expect(sections['tie-break'].draws).toBe(6);
    expect(sections['juror hypotheses'].draws).toBe(6);
  }, 300_000);
});

describe('3-ply TERMINATE per ply (item 5)', () => {
  it("run threeply: an abstention at the Defendant's ply keeps the Plaintiff's argued ply, which is scored (before: every ply dropped)", async () => {
    const base = minimal();
    const srv = await serve('threeply', (req) => {
      const s = system(req);
      if (s.startsWith('You are a Factor Analyst')) {
        const defendant = /Segment to analyse \(Defendant's Counterargument\)/.test(user(req));
        return {
          json: {
            summary: defendant ? 'c3 shares no factor with c1' : 'valid',
            utilized_factors: [],
            abstention_details: null,
            correction_details: null,
            analysis_outcome: defendant ? 'REQUIRES_ABSTENTION' : 'VALID_ARGUMENT',
          },
        };
      }
      if (s.startsWith('You are an Argument Polisher'))
        return { json: { ...(base(req).json as object), revision_needed: false, polished_argument: 'POLISHED plaintiff argument citing c2' } };
      return base(req);
    });
    const runDir = join(dir, 'runs/threeply-terminate');
    await run(srv, ['run', 'threeply', '--scenarios', 'arguable', '--n', '1'], runDir);
    const [t] = traces(runDir);
    expect(t.terminatedAt).toBe('defendant');
    expect(t.plies).toEqual({ plaintiff: 'POLISHED plaintiff argument citing c2', defendant: 'TERMINATE: c3 shares no factor with c1' });
    expect(results(runDir)[0].prediction).toBe('abstain');
    // the argued ply went to the evaluator
    const distilled = srv.requests.filter((r) => system(r).startsWith('You are a Factor Distiller'));
    expect(distilled).toHaveLength(1);
    expect(JSON.parse(user(distilled[0]))).toEqual({ "Plaintiff's Argument": 'POLISHED plaintiff argument citing c2' });
    expect(t.extracted).not.toBeNull();
  }, 300_000);
});

describe('ACAL RAG passage handles (item 6)', () => {
  it('run acal --system rag: the five passages are [P1]..[P5] (before: all five [P1])', async () => {
    const srv = await serve('acal-rag', minimal());
    const runDir = join(dir, 'runs/acal-rag');
    await run(srv, ['run', 'acal', '--task', 'hearsay', '--system', 'rag', '--index', idx, '--limit', '2', '--iterations', '100'], runDir);
    const asked = srv.requests.filter((r) => user(r).startsWith('TASK: answer the legal classification question using the retrieved evidence'));
    expect(asked).toHaveLength(2);
    for (const r of asked) {
      const block = /EVIDENCE:\n([\s\S]*?)\n\nCase:/.exec(user(r))![1];
      expect([...block.matchAll(/^\[(P\d+)\] /gm)].map((m) => m[1])).toEqual(['P1', 'P2', 'P3', 'P4', 'P5']);
    }
    expect(traces(runDir).every((t) => t.evidenceIds.length === 5)).toBe(true);
  }, 300_000);
});

describe('reasoning before the decision (item 4)', () => {
  it('every structured schema the runs above sent puts each reasoning key before its decision key', () => {
    const schemas = new Map<string, { system: string; schema: Record<string, unknown> }>();
    for (const { system, req } of sent) {
      const s = requestedSchema(req);
      if (s) schemas.set(JSON.stringify(s), { system, schema: s });
    }
    // the decision schemas of the five systems were all sent: MAD judge, ACAL judge-free runs' clash, EMAR parties and judge, 3-ply Factor Analyst, CASE jurors
    const all = [...schemas.values()];
    const has = (key: string) => all.some((x) => JSON.stringify(x.schema).includes(`"${key}"`));
    for (const key of ['verdict', 'winner', 'analysis_outcome', 'vote', 'established_facts', 'revision_needed', 'score']) expect(has(key), key).toBe(true);
    const problems = all.flatMap((x) => decisionBeforeReasoning(x.schema).map((p) => `${x.system}: ${p}`));
    expect([...new Set(problems)]).toEqual([]);
    expect(existsSync(idx)).toBe(true);
  });
});
