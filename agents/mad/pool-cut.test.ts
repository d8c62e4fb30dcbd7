/**
 * MAD's prompts show each Round-0 pool passage to its first `--passage-chars` characters (default
 * 600; 564 of the 1,195 Bar Exam gold passages are longer). The run counts the cuts: each trace's
 * pool marks a cut passage `cutFrom`, report.md's MAD section says how many. Driven through the CLI
 * and the real OpenAI client against a scripted server on 127.0.0.1 that answers every request with
 * an instance of its schema, on Bar Exam questions over the real Bar Exam passages.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { buildBarexamIndex } from '../../tests/support/barexam-index.js';
import { runCli } from '../../tests/support/run-cli.js';
import { useScriptedLlm } from '../../tests/support/scripted-llm-env.js';
import { schemaFollowing, startScriptedServer } from '../../tests/support/scripted-openai-server.js';

const flat = (t: string) => t.replace(/\s+/g, ' ');

let dir: string;
let index: string;
let text: Map<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-mad-pool-cut-'));
  index = join(dir, 'idx');
  ({ text } = await buildBarexamIndex(index));
}, 60_000);

afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(() => vi.unstubAllEnvs());

describe('run mad: pool passages cut for the prompts are counted', () => {
  it('single-rag marks each pool passage longer than --passage-chars cutFrom in the trace and report.md counts them', async () => {
    const srv = await startScriptedServer(schemaFollowing());
    try {
      useScriptedLlm(srv.url);
      const runDir = join(dir, 'single');
      const r = await runCli([
        'run',
        'mad',
        '--system',
        'single-rag',
        '--split',
        'val',
        '--limit',
        '3',
        '--k',
        '3',
        '--index',
        index,
        '--run-dir',
        runDir,
        '--no-cache',
      ]);
      expect(r.code).toBe(0);
      const prompts = srv.requests.map((q) => JSON.stringify(q.body.messages));
      const results = readFileSync(join(runDir, 'results.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      let passages = 0;
      let cut = 0;
      let cutItems = 0;
      for (const { id } of results) {
        const trace = JSON.parse(readFileSync(join(runDir, 'traces', `${id}.json`), 'utf8'));
        const pool = trace.pool as { id: string; cutFrom?: number }[];
        let here = 0;
        for (const p of pool) {
          // what the model received, against the source data
          const whole = flat(text.get(p.id)!);
          const shownWhole = prompts.some((q) => q.includes(JSON.stringify(whole).slice(1, -1)));
          expect([p.id, shownWhole]).toEqual([p.id, whole.length <= 600]);
          expect([p.id, p.cutFrom]).toEqual([p.id, whole.length > 600 ? whole.length : undefined]);
          if (p.cutFrom !== undefined) here++;
        }
        passages += pool.length;
        cut += here;
        if (here) cutItems++;
      }
      expect(cut).toBeGreaterThan(0);
      expect((await runCli(['report', runDir])).code).toBe(0);
      const report = readFileSync(join(runDir, 'report.md'), 'utf8');
      expect(report).toContain(
        `**${cut} of ${passages} pool passages** (in ${cutItems} of ${results.length} items) **were cut to their first 600 characters**`,
      );
    } finally {
      await srv.close();
    }
  }, 120_000);
});
