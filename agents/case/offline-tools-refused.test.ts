/**
 * The offline advocate's --tools (findEvidence's `use`, runOfflineAdvocate's `methods`): a name the
 * index lacks (bm26, a typo; dense on a sparse-only index) is refused naming it, as the LLM advocate
 * refuses it (select-tools.ts). Before, `lexcase evidence --offline --tools bm26,qld` and `run case
 * --offline --tools bm26,qld` ran qld alone (config.json recording ["bm26","qld"]), `--tools
 * bm25,dense` bm25 alone, without a word. rewrite, which the offline advocate cannot run (no LLM), is
 * skipped with a warning, not without one.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../../core/log.js';
import { openCaseIndex } from '../../retrieval/open-index.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { runCli } from '../../tests/support/run-cli.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';
import { loadQuestions } from '../../corpora/registry.js';
import { runOfflineAdvocate } from './advocate-offline.js';
import { createCaseOfflineSystem } from './case-offline-system.js';
import { findEvidence } from './find-evidence.js';

const LLM_VARS = ['LEXCASE_LLM_BASE_URL', 'OPENAI_BASE_URL', 'LEXCASE_LLM_MODEL', 'LEXCASE_LLM_API_KEY', 'OPENAI_API_KEY'];
const HYPOTHESIS = 'A statement made out of court offered to prove the truth of the matter asserted is inadmissible hearsay';
const FACTS = 'The prosecution offered a police report written by an officer who did not testify.';

let dir: string;
let index: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-offline-tools-'));
  index = join(dir, 'idx');
  await buildSmallBarexamIndex(index, { items: 2 }); // bm25 + qld, no dense
}, 60_000);
afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const noLlm = () => LLM_VARS.forEach((v) => vi.stubEnv(v, undefined as unknown as string));
const evidence = (tools: string, ...more: string[]) =>
  runCli(['--json', 'evidence', HYPOTHESIS, '--facts', FACTS, '--index', index, '--offline', '--tools', tools, '-k', '3', ...more]);

describe('offline --tools: a method the index lacks is refused, not dropped', () => {
  it('lexcase evidence --offline --tools bm26,qld / bm25,dense / dense exits 1 naming the name (did you mean "bm25"?); bm25,qld runs both', async () => {
    noLlm();
    for (const against of [[], ['--against']]) {
      const typo = await evidence('bm26,qld', ...against);
      expect(typo.code, typo.stdout).toBe(1);
      expect(typo.stdout).toBe('');
      expect(typo.stderr).toMatch(/retriever\(s\) not available: bm26 \(not a retrieval method; did you mean "bm25"\?\) \(index has: bm25, qld\)/);
      const lacked = await evidence('bm25,dense', ...against);
      expect(lacked.code).toBe(1);
      expect(lacked.stderr).toMatch(/retriever\(s\) not available: dense \(index has: bm25, qld\)/);
      const none = await evidence('dense', ...against);
      expect(none.code).toBe(1);
      expect(none.stderr).toMatch(/none of the retrievers dense is available \(index has: bm25, qld\)/);
      const both = await evidence('bm25,qld', ...against);
      expect(both.code, both.stderr).toBe(0);
      expect(new Set(JSON.parse(both.stdout).toolCalls.map((c: { tool: string }) => c.tool))).toEqual(new Set(['bm25_search', 'qld_search']));
    }
  });

  it('lexcase evidence --offline --tools bm25,rewrite searches bm25 and says rewrite was skipped (it needs an LLM)', async () => {
    noLlm();
    const r = await evidence('bm25,rewrite');
    expect(r.code, r.stderr).toBe(0);
    expect(new Set(JSON.parse(r.stdout).toolCalls.map((c: { tool: string }) => c.tool))).toEqual(new Set(['bm25_search']));
    expect(r.stderr).toContain('offline advocate: rewrite skipped: rewriting a query needs an LLM; it searches bm25');
  });

  it('run case --offline --tools bm26,qld (and bm25,dense) stops before the run starts: no run dir, no config recording the list', async () => {
    noLlm();
    for (const tools of ['bm26,qld', 'bm25,dense']) {
      const runDir = join(dir, `never-${tools}`);
      const r = await runCli(['run', 'case', '--offline', '--index', index, '--tools', tools, '--limit', '1', '--run-dir', runDir]);
      expect(r.code, tools).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(`retriever\\(s\\) not available: ${tools.split(',')[0] === 'bm26' ? 'bm26 \\(not a retrieval method; did you mean "bm25"\\?\\)' : 'dense'}`),
      );
      expect(existsSync(runDir)).toBe(false);
    }
  });

  it('findEvidence (use) and runOfflineAdvocate (methods) refuse the same; a skipped rewrite is said once', async () => {
    await expect(findEvidence({ hypothesis: HYPOTHESIS, facts: FACTS, index, use: ['bm26', 'qld'] })).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringContaining('bm26 (not a retrieval method; did you mean "bm25"?)'),
    });
    await expect(findEvidence({ hypothesis: HYPOTHESIS, facts: FACTS, index, use: ['qdl'], against: true })).rejects.toThrow(/did you mean "qld"\?/);
    const idx = await openCaseIndex(index);
    try {
      const hypothesis = { key: 'H', text: HYPOTHESIS, letter: null };
      for (const stance of ['for', 'against'] as const)
        await expect(runOfflineAdvocate({ retrievers: idx.retrievers, methods: ['bm25', 'dense'], facts: FACTS, hypothesis, k: 3, stance })).rejects.toThrow(
          /retriever\(s\) not available: dense \(index has: bm25, qld\)/,
        );
      const warn = vi.spyOn(log, 'warn');
      const r = await runOfflineAdvocate({ retrievers: idx.retrievers, methods: ['rewrite_query', 'qld_search'], facts: FACTS, hypothesis, k: 3 });
      expect(new Set(r.toolCalls.map((c) => c.tool))).toEqual(new Set(['qld_search']));
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual(['offline advocate: rewrite_query skipped: rewriting a query needs an LLM; it searches qld']);
    } finally {
      await idx.docs.close?.();
    }
  });

  it('run case --offline --tools bm25,rewrite and createCaseOfflineSystem({tools}) say a skipped rewrite once per run, not never or per item', async () => {
    noLlm();
    const runDir = join(dir, 'rewrite-once');
    const r = await runCli(['run', 'case', '--offline', '--index', index, '--tools', 'bm25,rewrite', '--limit', '2', '--run-dir', runDir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('offline advocate: rewrite skipped: rewriting a query needs an LLM; it searches bm25').length - 1).toBe(1);
    // the library: `rewrite` was dropped without a word, `rewrite_query` warned on every item
    const questions = (await loadQuestions('barexam', 'val')).slice(0, 2);
    const idx = await openCaseIndex(index);
    try {
      const ctx = { seed: 13, tools: [], retrievers: idx.retrievers, getPassage: idx.getPassage, options: {} };
      for (const rewrite of ['rewrite', 'rewrite_query']) {
        const warn = vi.spyOn(log, 'warn');
        const system = createCaseOfflineSystem({ tools: ['qld', rewrite] });
        for (const q of questions) {
          const out = await system(q, ctx);
          expect((out.trace as { methods: string[] }).methods).toEqual(['qld']);
        }
        expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([`offline advocate: ${rewrite} skipped: rewriting a query needs an LLM; it searches qld`]);
        warn.mockRestore();
      }
    } finally {
      await idx.docs.close?.();
    }
  }, 60_000);
});
