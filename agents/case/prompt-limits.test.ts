/**
 * CASE's prompts cut long texts (agents/common/defaults.ts CASE_PROMPT_LIMITS): a juror reads each
 * evidence passage to 1,200 characters and each advocate's note to 300, the advocate's compile call
 * lists its top 30 candidates at 300 characters, the baselines show each passage to 2,000. A run
 * records the limits in its config.json, the prompts keep to what it records and say when a list is
 * cut, and a run dir written before the fields existed still resumes.
 */
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPassages } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { FakeChatModel, type FakeCall, type FakeReply } from '../../tests/support/fake-chat-model.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';
import { runCaseExperiment } from './experiment.js';

let dir: string;
let index: string;
/** Bar Exam passages of more than 2,000 characters: every prompt limit cuts them. */
let long: Passage[];
const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-case-prompt-limits-'));
  index = join(dir, 'idx');
  long = [];
  for await (const p of loadPassages('barexam')) if (p.text.length > 2000 && long.length < 3) long.push(p);
  // the first val question's gold, 150 legal-corpus passages and the long ones
  await buildSmallBarexamIndex(index, { items: 1, extra: long });
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

const configOf = (runDir: string) => JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config;

describe('CASE prompt limits', () => {
  it('run case records them in config.json; the compile prompt says it shows the top 30; jurors read passages and notes cut at the recorded lengths', async () => {
    const [a] = long;
    const query = clean(a.text).split(' ').slice(0, 25).join(' ');
    // advocates: search twice for passage a (40 hits), hit the step limit, then pick the compile list's first two
    const script = (call: FakeCall): FakeReply => {
      if (/juror on a panel/.test(call.text)) return JSON.stringify({ reasoning: 'r', vote: 'B' });
      if (call.tools.length) return { toolCalls: [{ name: 'bm25_search', args: { query, k: 40 } }] };
      const picks = [...call.text.matchAll(/^(P\d+): /gm)].slice(0, 2).map((m) => m[1]);
      return JSON.stringify({ evidence: picks.map((id) => ({ id, justification: `Because ${'the rule applies here and '.repeat(20)}` })) });
    };
    const model = new FakeChatModel(script);
    const runDir = join(dir, 'case');
    const r = await runCaseExperiment({
      system: 'case',
      llm: model,
      dataset: 'barexam',
      split: 'val',
      index,
      limit: 1,
      runDir,
      jurors: 1,
      maxSteps: 2,
      k: 2,
      tools: ['bm25'],
    });
    expect(r).toMatchObject({ ran: 1, failed: 0 });
    const config = configOf(runDir);
    expect(config).toMatchObject({
      passageChars: 1200,
      advocateNoteChars: 300,
      compileCandidates: 30,
      compileSnippetChars: 300,
      searchSnippetChars: 600,
      searchSnippetMarks: 'within the length',
    });

    const compile = model.calls.find((c) => !c.tools.length && !/juror on a panel/.test(c.text))!;
    const listed = compile.text.split('\n').filter((l) => /^P\d+: /.test(l));
    expect(compile.text).toMatch(new RegExp(`The top ${config.compileCandidates} of the \\d+ passages your searches returned`));
    expect(listed).toHaveLength(config.compileCandidates);
    for (const l of listed) expect(l.replace(/^P\d+: /, '').length).toBeLessThanOrEqual(config.compileSnippetChars);

    const juror = model.calls.find((c) => /juror on a panel/.test(c.text))!.text;
    const shown = [...juror.matchAll(/^ {2}Evidence \d+ \[P\d+\]: (.*)$/gm)].map((m) => m[1]);
    expect(shown.length).toBeGreaterThanOrEqual(2);
    // a (the top hit of both searches, 2,000+ characters) is cut at the recorded length
    const text = shown.find((x) => x.startsWith(clean(a.text).slice(0, 60)))!;
    expect(text).toHaveLength(config.passageChars);
    expect(text.endsWith('…')).toBe(true);
    expect(clean(a.text).startsWith(text.slice(0, -1))).toBe(true);
    const notes = [...juror.matchAll(/^ {4}Advocate's note: (.*)$/gm)].map((m) => m[1]);
    expect(notes.length).toBeGreaterThanOrEqual(2);
    for (const n of notes) expect(n.length).toBeLessThanOrEqual(config.advocateNoteChars);
    expect(notes[0].endsWith('…')).toBe(true);

    // the advocate's search results: each snippet at most the recorded searchSnippetChars
    const snippets = model.calls.flatMap((c) => [...c.text.matchAll(/"snippet":"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string));
    expect(snippets.length).toBeGreaterThan(0);
    // its "… " / " …" marks included (retrieval/tools/snippet.ts; before, they came on top: up to 604)
    for (const sn of snippets) expect(sn.length).toBeLessThanOrEqual(config.searchSnippetChars);

    // what an older lexcase wrote: no searchSnippetChars, no searchSnippetMarks; the resume goes on and says so
    const file = join(runDir, 'config.json');
    const old = JSON.parse(readFileSync(file, 'utf8'));
    delete old.config.searchSnippetChars;
    delete old.config.searchSnippetMarks;
    writeFileSync(file, JSON.stringify(old));
    let stderr = '';
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
    try {
      expect(
        await runCaseExperiment({
          system: 'case',
          llm: model,
          dataset: 'barexam',
          split: 'val',
          index,
          limit: 2,
          runDir,
          jurors: 1,
          maxSteps: 2,
          k: 2,
          tools: ['bm25'],
        }),
      ).toMatchObject({ ran: 1, skipped: 1 });
    } finally {
      spy.mockRestore();
    }
    expect(stderr).toMatch(/does not record searchSnippetChars/);
    expect(stderr).toMatch(/searchSnippetMarks \(how a search snippet's "…" cut marks count: an older lexcase added them beyond searchSnippetChars/);
    expect(configOf(runDir)).toMatchObject({ searchSnippetChars: 600, searchSnippetMarks: 'within the length' });
  }, 120_000);

  it('run baseline records passageChars (none for llm-only) and cuts each passage there; a run dir written before the field resumes with a warning', async () => {
    const model = new FakeChatModel(() => JSON.stringify({ reasoning: 'r', answer: 'B' }));
    const runDir = join(dir, 'bm25-rag');
    // k = 200: every passage of the index is in the prompt, the long ones too
    const run = (limit: number) =>
      runCaseExperiment({ system: 'baseline', mode: 'bm25-rag', llm: model, dataset: 'barexam', split: 'val', index, limit, k: 200, runDir });
    expect(await run(1)).toMatchObject({ ran: 1, failed: 0 });
    const config = configOf(runDir);
    expect(config.passageChars).toBe(2000);
    const prompt = model.calls[0].text;
    for (const p of long) {
      const line = prompt.split('\n').find((l) => /^\[\d+\] /.test(l) && l.includes(clean(p.text).slice(0, 60)))!;
      const text = line.replace(/^\[\d+\] /, '');
      expect(text).toHaveLength(config.passageChars);
      expect(text.endsWith('…')).toBe(true);
    }

    // what an older lexcase wrote: no passageChars; the resume goes on and says so
    const file = join(runDir, 'config.json');
    const old = JSON.parse(readFileSync(file, 'utf8'));
    delete old.config.passageChars;
    writeFileSync(file, JSON.stringify(old));
    let stderr = '';
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
    try {
      expect(await run(2)).toMatchObject({ ran: 1, skipped: 1 });
    } finally {
      spy.mockRestore();
    }
    expect(stderr).toMatch(/does not record passageChars/);
    expect(configOf(runDir).passageChars).toBe(2000);

    const only = join(dir, 'llm-only');
    await runCaseExperiment({ system: 'baseline', mode: 'llm-only', llm: model, dataset: 'barexam', split: 'val', index, limit: 1, runDir: only });
    expect(configOf(only)).not.toHaveProperty('passageChars');
  }, 120_000);
});
