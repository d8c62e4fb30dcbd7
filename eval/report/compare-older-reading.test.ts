/**
 * A comparison says when a run's items mix two readings of replies: a run dir whose config.json recorded an
 * older `replyReading` (or none, as an older lexcase wrote it) resumed with a stderr warning, and config.json
 * then showed the current reading for the whole run, so `lexcase compare` of it and a fresh run printed no
 * config difference and no word that its first items were read otherwise. Now the text, --json and the
 * explorer's compare views and run page carry the resume's line (eval/run-resumes.ts uncheckedResumeLines).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REPLY_READING_BEFORE_REPEATS } from '../../core/llm/reply-reading.js';
import { compareRunsView } from '../../web/server/compare-api.js';
import { runSummary } from '../../web/server/run-summary-api.js';
import type { RunEntry } from '../../web/server/runs.js';
import { runExperiment } from '../runner.js';
import type { AgentSystem, SystemContext } from '../types.js';
import { compareRuns, formatComparison } from './compare.js';

interface Item {
  id: string;
  answer: string;
}
const ITEMS: Item[] = Array.from({ length: 12 }, (_, i) => ({ id: `mbe-${i}`, answer: 'ABCD'[i % 4] }));
const ctx = (): SystemContext => ({ seed: 0, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} });
const answer: AgentSystem<Item> = async (item) => ({ prediction: item.answer, trace: {} });
// an LLM run (its config names the model): the runner records replyReading
const MODEL = { provider: 'openai', baseUrl: 'http://127.0.0.1:18123/v1', model: 'm', temperature: 0, structuredOutput: 'json_schema' };

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-compare-older-reading-'));
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

const entry = (name: string): RunEntry => ({ id: name, dir: join(root, name), root, kind: 'run', system: 'mine', items: ITEMS.length, correct: 0, graphs: 0 });
const run = (name: string, items: Item[]) =>
  runExperiment({
    runDir: join(root, name),
    system: answer,
    items,
    gold: (q) => q.answer,
    makeContext: ctx,
    config: { system: 'mine', model: MODEL },
    seed: 13,
  });

describe('compare: a run resumed over an older replyReading', () => {
  it('names the resume and the items done before it in the text, --json and the explorer (before: nothing)', async () => {
    await run('fresh', ITEMS);
    await run('resumed', ITEMS.slice(0, 5));
    const file = join(root, 'resumed', 'config.json');
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    cfg.config.replyReading = REPLY_READING_BEFORE_REPEATS; // as the lexcase of 2026-12-01 recorded it
    writeFileSync(file, JSON.stringify(cfg));
    await run('resumed', ITEMS);
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
      stderr += String(s);
      return true;
    });
    const c = await compareRuns(entry('fresh').dir, entry('resumed').dir);
    // `lexcase compare` and `lexcase report` (readRun) warn on stderr too
    expect(stderr).toContain(`${entry('resumed').dir}: resume of `);
    const line = expect.stringMatching(
      /^B: resume of \S+ found config\.json written by an older lexcase without, or with an older value of, replyReading: the 5 items done before it were made under that older lexcase's/,
    );
    expect(c.pairingLines).toEqual([line]);
    expect(formatComparison(c)).toContain('- B: resume of ');
    expect(c.configDiff.replyReading).toBeUndefined(); // config.json shows the current reading in both
    const pair = await compareRunsView(entry('fresh'), entry('resumed'));
    expect(pair.pairingLines).toEqual([line]);
    // the explorer's run page (its summary header) says the same of the run alone; a fresh run says nothing
    expect((await runSummary(entry('resumed'))).resumeWarnings).toEqual([
      expect.stringMatching(/^resume of \S+ found config\.json .* replyReading: the 5 items/),
    ]);
    expect((await runSummary(entry('fresh'))).resumeWarnings).toEqual([]);
  });
});
