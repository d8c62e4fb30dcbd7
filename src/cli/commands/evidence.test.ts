import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findEvidence } from '../../../agents/case/find-evidence.js';
import { PASSAGES } from '../../../agents/case/test-support/fixtures.js';
import { buildIndex } from '../../../indexer/build.js';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { FakeChatModel, type FakeReply } from '../../../tests/support/fake-chat-model.js';
import { EVIDENCE_TOOLS_HELP, evidenceJson, formatEvidence } from './evidence.js';

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'evidence-cmd-'));
  const passages = Object.entries(PASSAGES).map(([id, text]) => ({ id, text }));
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: join(dir, 'idx'), corpusName: 'fre', methods: ['bm25'], workers: 0 },
  );
});
afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

const evidenceText = async (script: FakeReply[]) =>
  formatEvidence(
    await findEvidence({ hypothesis: 'Paul cannot impeach his own witness', index: join(dir, 'idx'), llm: new FakeChatModel(script), use: ['bm25'], k: 3 }),
  );

describe('lexcase evidence (text output) says why it found nothing', () => {
  it('a search the tool refused shows its error, not "0 ids"', async () => {
    const text = await evidenceText([{ toolCalls: [{ name: 'bm25_search', args: { query: 'impeach own witness', k: 5000 } }] }, 'no passages came back']);
    // before: bm25_search [step 1]: "impeach own witness" → 0 ids
    expect(text).toMatch(/bm25_search \[step 1\]: "impeach own witness" → error: .*50/);
    expect(text).not.toContain('→ 0 ids');
  });

  it('a tool call written as text (no retrieval ran) is named in place of a bare "No passages found."', async () => {
    const text = await evidenceText(['<tool_call>\n{"name": "bm25_search", "arguments": {"query": "impeach own witness"}}\n</tool_call>']);
    expect(text).toContain(
      'No passages found: final reply has no parseable selection and no tool returned passages (it looks like a tool call written as text',
    );
    expect(text).toContain('Tool calls (0):');
  });
});

describe('lexcase evidence (text output) says a repeated call ran once', () => {
  it('the same search twice in one reply: listed, said repeated, run once', async () => {
    const q = { query: 'impeach own witness' };
    const text = await evidenceText([
      {
        toolCalls: [
          { name: 'bm25_search', args: q },
          { name: 'bm25_search', args: q },
        ],
      },
      JSON.stringify({ evidence: [{ id: 'P1', justification: 'j' }] }),
    ]);
    // before: "Tool calls (2):", each listed with its ids, the passages scored twice
    expect(text).toContain('Tool calls (2; 1 repeated in one reply, run once):');
    expect(text).toMatch(/bm25_search \[step 1\]: "impeach own witness" → repeated in one reply: run once/);
  });

  it('a tool named in another spelling ("Search_BM25", "bm25") is marked not offered and counted as refused', async () => {
    const q = { query: 'impeach own witness' };
    const r = await findEvidence({
      hypothesis: 'Paul cannot impeach his own witness',
      index: join(dir, 'idx'),
      llm: new FakeChatModel([
        {
          toolCalls: [
            { name: 'Search_BM25', args: q },
            { name: 'bm25', args: q },
            { name: 'bm25_search', args: q },
          ],
        },
        JSON.stringify({ evidence: [{ id: 'P1', justification: 'j' }] }),
      ]),
      use: ['bm25'],
      k: 3,
    });
    // before: the two read as searches that errored, nothing said they named no tool offered, no run figure counted them
    expect(r.toolCalls.map((c) => [c.tool, c.notOffered ?? false])).toEqual([
      ['Search_BM25', true],
      ['bm25', true],
      ['bm25_search', false],
    ]);
    expect(formatEvidence(r)).toContain('Tool calls (3; 2 naming no tool offered, refused):');
  });
});

describe('lexcase evidence --tools help says what runs without it', () => {
  it('offline, the supporting advocate searches bm25 alone and --against every one of bm25, qld the index has, as the help says (it said "all the index has")', async () => {
    const idx = join(dir, 'idx2');
    const passages = Object.entries(PASSAGES).map(([id, text]) => ({ id, text }));
    await buildIndex(
      (async function* () {
        yield* passages;
      })(),
      { out: idx, corpusName: 'fre', methods: ['bm25', 'qld'], workers: 0 },
    );
    const facts = 'Paul called Wes, who testified that the light was green; Paul then called Vic to say it was red.';
    const tools = async (against: boolean) =>
      [
        ...new Set((await findEvidence({ hypothesis: 'Paul cannot impeach his own witness', facts, index: idx, against, k: 3 })).toolCalls.map((c) => c.tool)),
      ].sort();
    expect(await tools(false)).toEqual(['bm25_search']);
    expect(await tools(true)).toEqual(['bm25_search', 'qld_search']);
    expect(EVIDENCE_TOOLS_HELP).not.toContain('all the index has');
    expect(EVIDENCE_TOOLS_HELP).toContain('offline: bm25');
    expect(EVIDENCE_TOOLS_HELP).toContain('with --against every one of bm25, qld, dense the index has, else hybrid');
  });
});

describe('lexcase evidence (text output) never sends a passage’s or the model’s control characters to the terminal', () => {
  it('an escape sequence in a passage, its justification or the analysis is printed escaped, on its own line', () => {
    const text = formatEvidence({
      hypothesis: 'Paul cannot impeach his own witness',
      facts: '',
      stance: 'for',
      mode: 'llm',
      evidence: [
        {
          id: 'fre_607',
          score: 2.5,
          justification: 'quoted\u001b[1A\u001b[2K 1. forged  score 99.0000',
          text: 'Who May Impeach.\u001b[2J Any party\u009b31m may attack',
        },
      ],
      toolCalls: [],
      analysis: 'Rule 607\nallows it\u202E',
      stop: 'offline',
      tokens: 0,
    });
    // before: the ESC, CSI (U+009B) and U+202E reached stdout raw, and the analysis's newline split its line
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(text).toContain('Analysis: Rule 607 allows it\\u202e');
    expect(text).toContain('    quoted\\u001b[1A\\u001b[2K 1. forged score 99.0000');
    expect(text).toContain('    "Who May Impeach.\\u001b[2J Any party\\u009b31m may attack"');
  });
});

describe('lexcase evidence --json', () => {
  it('gives each evidence item its 1-based rank, as MCP find_evidence does, the rest of the item unchanged', async () => {
    const r = await findEvidence({ hypothesis: 'Paul cannot impeach his own witness', index: join(dir, 'idx'), use: ['bm25'], k: 3 });
    expect(r.evidence.length).toBeGreaterThan(1);
    const json = JSON.parse(JSON.stringify(evidenceJson(r, { total: 0 })));
    expect(json.evidence.map((e: { rank: number }) => e.rank)).toEqual(r.evidence.map((_, i) => i + 1));
    expect(json.evidence.map(({ rank: _, ...e }: { rank: number }) => e)).toEqual(JSON.parse(JSON.stringify(r.evidence)));
    expect(json.usage).toEqual({ total: 0 });
  });
});

describe('lexcase evidence says which flags did nothing', () => {
  it('offline, --max-steps bounds no model call and --dataset without --question names nothing: each warned (before: silent)', async () => {
    const { runCli } = await import('../../../tests/support/run-cli.js');
    const r = await runCli([
      'evidence',
      '--offline',
      'Paul cannot impeach his own witness',
      '--index',
      join(dir, 'idx'),
      '--max-steps',
      '3',
      '--dataset',
      'barexam',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain("[warn] --max-steps is ignored: it bounds the LLM advocate's model calls, and this search is offline (no model calls)");
    expect(r.err).toContain('[warn] --dataset is ignored: it names the dataset of --question, and none was given');
    // the defaults alone say nothing
    const plain = await runCli(['evidence', '--offline', 'Paul cannot impeach his own witness', '--index', join(dir, 'idx')]);
    expect(plain.code, plain.err).toBe(0);
    expect(plain.err).not.toContain('is ignored');
  });
});
