/**
 * SP and CoT show the task's train rows as few-shot examples, each with its gold label. A test file
 * that also holds a train row (a user's own split; the same text, up to case and white space) showed
 * that item its own label: the bundled hearsay test with the 5 train rows appended ran 99 items, a
 * model copying an example's label for its own case answered those 5 right, and accuracy read 58.6%
 * where the same answers with no such help give 56.6% — exit 0. Now the run is refused, naming the
 * items and the examples, before anything is asked.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_LEGALBENCH_DIR } from '../../corpora/legalbench.js';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { runAcal } from './experiment.js';
import '../systems.js';

let dir: string;
let srv: ScriptedServer;
const rows = (split: string) =>
  readFileSync(join(BUNDLED_LEGALBENCH_DIR, 'hearsay', `${split}.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { index: string; text: string; answer: string });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'acal-few-shot-'));
  // a model that answers an item shown among the examples with that example's label, and "No" otherwise
  srv = await startScriptedServer((req) => {
    const user = String(req.body.messages.at(-1).content);
    const cases = [...user.matchAll(/Case: ([\s\S]*?)(?:\nAnswer: (Yes|No)|\n\nQUESTION)/g)];
    const own = cases.slice(0, -1).find((c) => c[1].toLowerCase() === cases.at(-1)?.[1].toLowerCase());
    return { json: { reasoning: 'r', answer: own ? own[2] : 'No' } };
  });
}, 60_000);
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

const llm = () => createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 10_000 }));

/** A --data dir: the bundled hearsay train rows, and its test rows with `extra` appended as items 94…. */
function dataDir(name: string, extra: { text: string; answer: string }[]): string {
  const d = join(dir, name);
  mkdirSync(d);
  const test = [...rows('test'), ...extra.map((r, i) => ({ ...r, index: String(94 + i) }))];
  writeFileSync(join(d, 'hearsay.test.jsonl'), test.map((r) => JSON.stringify(r)).join('\n') + '\n');
  writeFileSync(
    join(d, 'hearsay.train.jsonl'),
    rows('train')
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n',
  );
  return d;
}

describe('ACAL sp/cot few-shot examples that are items of the split run', () => {
  it('a test file holding the 5 hearsay train rows is refused for sp and cot, naming them; nothing is asked (before: 99 items, those 5 answered from their examples)', async () => {
    const data = dataDir('leak', rows('train'));
    for (const system of ['sp', 'cot'] as const) {
      const runDir = join(dir, `run-${system}`);
      await expect(runAcal({ task: 'hearsay', runDir, llm: llm(), system, dataDir: data, iterations: 100 })).rejects.toThrow(
        /--system (sp|cot): 5 items of .*hearsay\.test\.jsonl are also among the few-shot examples of .*hearsay\.train\.jsonl \(hearsay-test-94 = hearsay-train-0, hearsay-test-95 = hearsay-train-1, .*\): each would be shown its own gold label/,
      );
      expect(existsSync(join(runDir, 'results.jsonl'))).toBe(false);
    }
    expect(srv.requests).toHaveLength(0);
  });

  it('a copy differing only in case and white space is the same item; beyond --limit too (a larger --limit would run it)', async () => {
    const t = rows('train')[3];
    const data = dataDir('spaced', [{ text: `  ${t.text.toUpperCase().replace(/ /g, '  \n')}`, answer: t.answer }]);
    await expect(
      runAcal({ task: 'hearsay', runDir: join(dir, 'run-spaced'), llm: llm(), system: 'sp', dataDir: data, limit: 3, iterations: 100 }),
    ).rejects.toThrow(/1 item of .* is also among the few-shot examples .*\(hearsay-test-94 = hearsay-train-3\)/);
    expect(srv.requests).toHaveLength(0);
  });

  it('a test file disjoint from the train rows runs as before, every example shown', async () => {
    const data = dataDir('clean', []);
    const r = await runAcal({ task: 'hearsay', runDir: join(dir, 'run-clean'), llm: llm(), system: 'sp', dataDir: data, limit: 4, iterations: 100 });
    expect(r.ran).toBe(4);
    expect(String(srv.requests[0].body.messages.at(-1).content).match(/\nAnswer: /g)).toHaveLength(5);
  });

  // before: --data DIR without hearsay's train file showed the bundled train rows beside the user's items,
  // recorded only in config.json (dataFiles.train.source "bundled"); the run's reports said nothing
  it('--data holding the test file only: the run says its examples are the bundled train rows, in acal-report.md and report.md', async () => {
    const d = join(dir, 'test-only');
    mkdirSync(d);
    writeFileSync(
      join(d, 'hearsay.test.jsonl'),
      rows('test')
        .slice(40, 50)
        .map((r) => `${JSON.stringify(r)}\n`)
        .join(''),
    );
    const runDir = join(dir, 'run-test-only');
    await runAcal({ task: 'hearsay', runDir, llm: llm(), system: 'sp', dataDir: d, limit: 2, iterations: 100 });
    const said =
      /the few-shot examples come from the bundled corpora\/data\/legalbench\/hearsay\/train\.jsonl, the items from .*test-only\/hearsay\.test\.jsonl \(--data\): --data holds no hearsay train file/;
    expect(readFileSync(join(runDir, 'acal-report.md'), 'utf8')).toMatch(said);
    expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toMatch(said);
    // the train file beside the items: nothing to say
    const both = dataDir('both', []);
    const quiet = join(dir, 'run-both');
    await runAcal({ task: 'hearsay', runDir: quiet, llm: llm(), system: 'sp', dataDir: both, limit: 2, iterations: 100 });
    expect(readFileSync(join(quiet, 'report.md'), 'utf8')).not.toMatch(/few-shot examples come from/);
  });
});
