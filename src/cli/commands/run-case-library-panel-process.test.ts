/**
 * The jury a library run seats is the CLI's: the built `lexcase run case` (a child process) and the
 * library (`runExperiment` with `createCase` and `contextFrom`, as docs/runner.md shows it) run the
 * same 3 Bar Exam val items with the same seed and jurors against one OpenAI-compatible server on
 * 127.0.0.1, which records the persona each juror request names ("Your persona: The …"). Both must
 * send the personas `panelFor(seed, questionId, jurors)` draws (agents/case/jury-panel.ts, the one
 * sampling), and record them in each trace's `panel`; and the built `lexcase/agents/case` gives a user
 * composing a jury of its own that same draw (`panelFor`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { factsOf } from '../../../agents/common/question-text.js';
import { panelFor } from '../../../agents/case/jury-panel.js';
import { createCase } from '../../../agents/case/index.js';
import { llmConfigSchema } from '../../../core/config.js';
import { PACKAGE_ROOT } from '../../../core/version.js';
import { createChatModel } from '../../../core/llm/factory.js';
import { contextFrom, runExperiment } from '../../../eval/runner.js';
import { openIndex } from '../../../retrieval/open-index.js';
import { createRetrievalTools } from '../../../retrieval/tools/index.js';
import { caseScriptedRun } from '../../../tests/support/case-scripted-run.js';
import { runBuiltCli } from '../../../tests/support/run-built-cli.js';

const N = 3;
const SEED = 7;
const JURORS = 3;
/** Per route ("cli", "library"), per item id: the personas its juror requests named, in order. */
const seated = new Map<string, Map<string, string[]>>();
let route = 'cli';

const run = caseScriptedRun({
  prefix: 'lexcase-library-panel-',
  items: N,
  searchK: 2,
  juror: (all, val) => {
    const persona = /Your persona: The ([^.]+)\./.exec(all)?.[1];
    if (!persona) return undefined;
    const q = val.find((x) => all.includes(factsOf(x)))!;
    const byItem = seated.get(route) ?? new Map<string, string[]>();
    seated.set(route, byItem);
    byItem.set(q.id, [...(byItem.get(q.id) ?? []), persona]);
    return { json: { reasoning: 'weighing the evidence', vote: 'A' } };
  },
});

const panels = (runDir: string) =>
  Object.fromEntries(run.val.map((q) => [q.id, JSON.parse(readFileSync(join(runDir, 'traces', `${q.id}.json`), 'utf8')).panel as string[]]));

describe('run case and the library seat the same jury', () => {
  it('same seed, same --jurors: the same personas sent for each question, the ones panelFor draws', async () => {
    const want = Object.fromEntries(run.val.map((q) => [q.id, panelFor(SEED, q.id, JURORS).map((p) => p.name)]));
    // the draw differs between questions: a route that seated one panel for all would not pass
    expect(new Set(Object.values(want).map((p) => p.join('|'))).size).toBeGreaterThan(1);

    route = 'cli';
    const cliDir = join(run.dir, 'cli');
    const r = await runBuiltCli(
      [
        'run',
        'case',
        '--index',
        run.index,
        '--limit',
        String(N),
        '--tools',
        'bm25',
        '--k',
        '2',
        '--seed',
        String(SEED),
        '--jurors',
        String(JURORS),
        '--run-dir',
        cliDir,
        '--no-cache',
      ],
      { cwd: run.dir, env: run.env(), timeoutMs: 240_000 },
    );
    expect(r.code, r.stderr).toBe(0);

    route = 'library';
    const libDir = join(run.dir, 'library');
    const idx = await openIndex(run.index);
    try {
      const retrievers = await idx.allRetrievers(['bm25']);
      const llm = createChatModel(llmConfigSchema.parse({ baseUrl: run.srv.url, model: 'scripted', cacheDir: false, retryBaseMs: 1 }));
      const tools = createRetrievalTools({ retrievers, docs: idx.docs, defaultK: 2 });
      await runExperiment({
        runDir: libDir,
        system: createCase({ k: 2, jurors: JURORS }),
        items: run.val,
        gold: (q) => q.answer,
        makeContext: contextFrom({ tools, retrievers, llm, getPassage: idx.getPassage }),
        config: { system: 'case', dataset: 'barexam', split: 'val', k: 2, jurors: JURORS },
        seed: SEED,
      });
    } finally {
      await idx.docs.close?.();
    }

    expect(Object.fromEntries(seated.get('cli')!)).toEqual(want);
    expect(Object.fromEntries(seated.get('library')!)).toEqual(want);
    expect(panels(cliDir)).toEqual(want);
    expect(panels(libDir)).toEqual(want);

    // a library user seating a jury of its own (runAdvocate, majorityVote) draws it from the built `lexcase/agents/case`:
    // panelFor(run seed, question id) is the CLI's jury; samplePanel takes an item's seed, and given the run seed it
    // seats another jury (before, panelFor was not exported there, and docs/case.md offered only samplePanel)
    const lib = await import(join(PACKAGE_ROOT, 'dist', 'agents', 'case', 'public.js'));
    expect(Object.fromEntries(run.val.map((q) => [q.id, lib.panelFor(SEED, q.id, JURORS).map((p: { name: string }) => p.name)]))).toEqual(panels(cliDir));
    expect(
      run.val.some(
        (q) =>
          lib
            .samplePanel(SEED, JURORS)
            .map((p: { name: string }) => p.name)
            .join('|') !== want[q.id].join('|'),
      ),
    ).toBe(true);
  }, 300_000);
});
