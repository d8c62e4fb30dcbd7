/**
 * A new agent system is its folder plus one line in agents/systems.ts (issue 39 item 1). In a
 * temporary copy of the repository (agents/, src/ and web/ copied — the folders that read the list —
 * the lower layers and node_modules linked), a toy system is added as agents/toy/ and one line in
 * agents/systems.ts; nothing else is edited. From that copy, in this process: `lexcase run --help`
 * lists it, `lexcase run toy` runs it over three bundled Bar Exam questions, its report has the toy's
 * own section, and the explorer (its server, in process) lists it in /api/info, shows the run and
 * gives its items the trace view the toy's entry names — not the one its trace's shape suggests.
 *
 * eval/ is linked, so the copy's agents/systems.ts hands its list to this checkout's eval module —
 * the one every later file in the same worker (the tiers share workers) reads. The list is put back
 * when the toy's tests end: before, a later in-process `run emar` loaded the copy's emar plugin,
 * deleted with the copy ("Cannot find module /tmp/lexcase-toy-…/agents/emar/report-section.ts").
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_PLUGINS, SYSTEMS } from '../eval/systems.js';
import { AGENT_SYSTEMS } from '../agents/systems.js';

const root = fileURLToPath(new URL('..', import.meta.url));

const PLUGIN = `import { accuracy } from '../../eval/headline-metrics.js';
import { cli, matchesNames, type SystemPlugin } from '../../eval/systems.js';

export const toyPlugin: SystemPlugin = {
  id: 'toy',
  name: 'Toy',
  variants: ['toy/fixed'],
  aliases: ['toy-old'],
  matches: matchesNames('toy', ['toy/fixed'], ['toy-old']),
  run: cli(false),
  traceKind: 'baseline',
  reportSection: 'toy',
  method: (c) => (typeof c.answer === 'string' ? c.answer : null),
  k: () => null,
  headline: [accuracy],
  paper: {},
  cli: {
    description: 'a toy system that answers one fixed letter',
    defaultRunDir: 'runs/toy',
    llm: false,
    flags: [{ name: 'answer', description: 'the letter it always answers', type: 'string', default: 'A', choices: ['A', 'B', 'C', 'D'] }],
  },
  load: () => import('./module.js'),
};
`;

const MODULE = `import { loadQuestions } from '../../corpora/registry.js';
import { runExperiment } from '../../eval/runner.js';
import type { SectionBuilder } from '../../eval/report/types.js';
import type { PluginRunOptions } from '../../eval/systems.js';

export const reportSection: SectionBuilder = (run) => ({
  id: 'toy',
  title: 'Toy: the fixed answer',
  markdown: \`answered \${String(run.config.config.answer)} on \${run.results.length} items\`,
  json: { answer: run.config.config.answer },
});

export async function run(o: PluginRunOptions) {
  const answer = String(o.flags.answer);
  const items = (await loadQuestions('barexam', 'val')).slice(0, Number(o.flags.limit ?? 3));
  const r = await runExperiment({
    runDir: o.runDir,
    items,
    gold: (q) => q.answer,
    seed: 13,
    config: { system: 'toy', answer, dataset: 'barexam', split: 'val' },
    makeContext: (_q, { seed }) => ({ seed, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} }),
    system: async () => ({ prediction: answer, trace: { system: 'toy', reasoning: \`always \${answer}\` } }),
    whileLocked: o.whileLocked,
  });
  return { ran: r.ran, skipped: r.skipped, failed: r.failed };
}
`;

let copy: string;
let runs: string;

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'lexcase-toy-'));
  // the folders that import agents/systems.ts are copied (a link would resolve back to this checkout's list)
  for (const d of ['agents', 'src', 'web']) cpSync(join(root, d), join(copy, d), { recursive: true, filter: (p) => !p.endsWith('.test.ts') });
  for (const d of ['core', 'corpora', 'indexer', 'retrieval', 'eval', 'serve', 'node_modules', 'package.json', 'tsconfig.json'])
    symlinkSync(join(root, d), join(copy, d));
  // the toy system: its folder …
  const dir = join(copy, 'agents', 'toy');
  mkdirSync(dir);
  writeFileSync(join(dir, 'plugin.ts'), PLUGIN);
  writeFileSync(join(dir, 'module.ts'), MODULE);
  // … and its entry in the list (an import and its name: the one shared file it touches)
  const list = join(copy, 'agents', 'systems.ts');
  const text = readFileSync(list, 'utf8');
  const edited = text
    .replace("import { threeplyPlugin } from './threeply/plugin.js';\n", "$&import { toyPlugin } from './toy/plugin.js';\n")
    .replace('  emarPlugin,\n];', '  emarPlugin,\n  toyPlugin,\n];');
  expect(edited.split('\n').length - text.split('\n').length).toBe(2);
  writeFileSync(list, edited);
  runs = join(copy, 'runs');
});

afterAll(() => rmSync(copy, { recursive: true, force: true }));

// this checkout's list, handed to eval by importing agents/systems.ts (above), before the copy's
const saved = { systems: [...SYSTEMS], agents: [...AGENT_PLUGINS] };

describe('a toy system added as its folder plus one line in agents/systems.ts', () => {
  afterAll(() => {
    SYSTEMS.splice(0, SYSTEMS.length, ...saved.systems);
    AGENT_PLUGINS.splice(0, AGENT_PLUGINS.length, ...saved.agents);
  });

  it('is in `lexcase run --help`, runs with `lexcase run toy`, has its report section and its view in the explorer', { timeout: 240_000 }, async () => {
    const at = (p: string) => pathToFileURL(join(copy, p)).href;
    const { buildProgram } = (await import(at('src/cli/program.ts'))) as typeof import('../src/cli/program.js');
    const program = buildProgram();
    const run = program.commands.find((c) => c.name() === 'run')!;
    expect(run.helpInformation()).toMatch(/\btoy \[options\]\s+a toy system that answers one fixed letter/);
    expect(run.commands.find((c) => c.name() === 'toy')!.helpInformation()).toMatch(
      /--answer <value>\s+the letter it always answers \(choices: "A", "B", "C", "D",\s+default: "A"\)/,
    );

    const runDir = join(runs, 'toy-b');
    program.exitOverride();
    await program.parseAsync(['node', 'lexcase', '--quiet', 'run', 'toy', '--answer', 'B', '--limit', '3', '--run-dir', runDir]);
    const results = readFileSync(join(runDir, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { prediction: string; gold: string; correct: boolean });
    expect(results.map((r) => r.prediction)).toEqual(['B', 'B', 'B']);
    expect(results.map((r) => r.correct)).toEqual(results.map((r) => r.gold === 'B'));
    const md = readFileSync(join(runDir, 'report.md'), 'utf8');
    expect(md).toContain('## Toy: the fixed answer');
    expect(md).toContain('answered B on 3 items');

    const { startExplorer } = (await import(at('web/server/server.ts'))) as typeof import('../web/server/server.js');
    const s = await startExplorer({ runs, port: 0 });
    try {
      const get = async (path: string) => (await (await fetch(`${s.url}${path}`)).json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      const info = await get('/api/info');
      expect(info.systems.find((x: { id: string }) => x.id === 'toy')).toMatchObject({
        name: 'Toy',
        traceKind: 'baseline',
        reportSection: 'toy',
        runnable: true,
        variants: ['toy/fixed'],
      });
      const listed = (await get('/api/runs')).runs.find((r: { id: string }) => r.id === 'toy-b');
      expect(listed).toMatchObject({ system: 'toy', items: 3 });
      const item = results.length ? (JSON.parse(readFileSync(join(runDir, 'results.jsonl'), 'utf8').split('\n')[0]) as { id: string }).id : '';
      const trace = await get(`/api/run/trace?run=toy-b&item=${encodeURIComponent(item)}`);
      // the entry's view, though the trace's shape ({system: 'toy', reasoning}) would say "other"
      expect(trace.traceKind).toBe('baseline');
      // the browser app's choice of view (web/app/run-view.ts; its DOM types are not this project's)
      const { traceKind } = (await import(at('web/app/run-view.ts'))) as { traceKind(sent: unknown, trace: unknown): string };
      expect(traceKind(trace.traceKind, trace.trace)).toBe('baseline');
      expect(traceKind(null, trace.trace)).toBe('other');
    } finally {
      await s.close();
    }
  });
});

describe('after the toy', () => {
  it("eval's list is this checkout's again: no toy, every entry this checkout's own plugin object", () => {
    expect(SYSTEMS.map((x) => x.id)).not.toContain('toy');
    expect(SYSTEMS.length).toBe(saved.systems.length);
    expect(SYSTEMS.every((x, i) => x === saved.systems[i])).toBe(true);
    expect(AGENT_PLUGINS.every((x, i) => x === AGENT_SYSTEMS[i])).toBe(true);
    expect(AGENT_PLUGINS.length).toBe(AGENT_SYSTEMS.length);
  });
});
