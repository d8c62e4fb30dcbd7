/**
 * The LLM-call inspector shows what a real run recorded: the built `lexcase run case` (a child
 * process) against a local scripted OpenAI-compatible server records every exchange in
 * `<run>/llm/<item>.jsonl` (the one layout, also what `--replay` reads), and the explorer serves
 * those files as calls — one per request the server received, with the prompt as sent, the reply,
 * tool calls, latency and tokens that add up to the item's totals in results.jsonl, and the reply
 * the juror's reader refused marked on that call (the retry that followed is the next call). In
 * headless Chromium (skipped, saying why, without one) the run's trace shows the same calls.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../src/mcp/test-support/children.js';
import { mixedIndexFixture, SENSIBLE } from '../tests/support/five-systems.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { startExplorer, type ExplorerServer } from './server/server.js';
import { CHROMIUM, openTestBrowser } from './test-support/browser.js';

const RUN = 'case-cli';
const fx = mixedIndexFixture('inspector', 2);

interface Call {
  stage: string;
  messages: { role: string; content: string }[];
  reply: string | null;
  toolCalls?: { name: string }[];
  error?: string;
  ms?: number;
  tokens?: { input?: number; output?: number; total?: number };
}
interface Calls {
  source: string;
  calls: Call[];
  problems: string[];
  totals: { calls: number | null; tokens: number | null };
}

let srv: ScriptedServer;
let ex: ExplorerServer;
let items: string[];
const calls = new Map<string, Calls>();

beforeAll(async () => {
  // a cooperative CASE model, except that the first juror request gets a reply that is not JSON
  const sensible = SENSIBLE.case();
  let refused = false;
  srv = await startScriptedServer((r: RecordedRequest) => {
    if (!refused && /juror on a panel/.test(JSON.stringify(r.body.messages))) {
      refused = true;
      return { content: 'I vote for the second option.' };
    }
    return sensible(r);
  });
  const runs = join(fx.dir, 'runs');
  const r = await runBuiltCli(
    ['--json', 'run', 'case', '--index', fx.index.dir, '--limit', '2', '--jurors', '3', '--max-steps', '3', '--run-dir', join(runs, RUN)],
    {
      cwd: fx.dir,
      env: { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', XDG_CACHE_HOME: join(fx.dir, 'cache'), NO_COLOR: '1' },
    },
  );
  await srv.close();
  expect(r.code, r.stderr).toBe(0);
  items = readFileSync(join(runs, RUN, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).id as string);
  ex = await startExplorer({ index: fx.index.dir, runs, port: 0 });
  for (const id of items) {
    const res = await fetch(`${ex.url}/api/run/calls?run=${encodeURIComponent(RUN)}&item=${encodeURIComponent(id)}`);
    expect(res.status).toBe(200);
    calls.set(id, (await res.json()) as Calls);
  }
}, 240_000);

afterAll(async () => {
  await ex?.close();
});

describe('a run made by the built CLI shows its LLM calls in the inspector', () => {
  it('every request the server received is one recorded call (llm/<item>.jsonl), with its prompt, reply, latency and tokens', () => {
    expect(items).toHaveLength(2);
    for (const id of items) {
      expect(existsSync(join(fx.dir, 'runs', RUN, 'llm', `${id}.jsonl`))).toBe(true);
      expect(calls.get(id)!.source).toBe('recorded');
      expect(calls.get(id)!.problems).toEqual([]);
    }
    const all = items.flatMap((id) => calls.get(id)!.calls);
    expect(all).toHaveLength(srv.requests.length);
    // each call's last message is one the server received as the last message of a request
    const sent = new Set(srv.requests.map((q) => JSON.stringify(q.body.messages.at(-1).content)));
    for (const c of all) {
      expect(c.messages.length).toBeGreaterThan(0);
      expect(sent.has(JSON.stringify(c.messages.at(-1)!.content)), c.messages.at(-1)!.content.slice(0, 80)).toBe(true);
      expect(c.reply).not.toBeNull();
      expect(c.ms).toBeGreaterThanOrEqual(0);
      expect(c.tokens?.total).toBeGreaterThan(0);
    }
  });

  it('calls are named by their step, and add up to the item totals of results.jsonl', () => {
    for (const id of items) {
      const r = calls.get(id)!;
      const stages = r.calls.map((c) => c.stage);
      expect(stages.filter((s) => /^advocate [A-Z]$/.test(s)).length).toBeGreaterThanOrEqual(2);
      expect(new Set(stages.filter((s) => s.startsWith('juror ')))).toHaveProperty('size', 3);
      expect(r.calls.filter((c) => c.toolCalls?.some((t) => /_search$/.test(t.name))).length).toBeGreaterThan(0);
      expect(r.totals.calls).toBe(r.calls.length);
      expect(r.totals.tokens).toBe(r.calls.reduce((a, c) => a + (c.tokens?.total ?? 0), 0));
    }
  });

  it('the reply the reader refused carries its error; the retry of the same step follows and succeeds', () => {
    const failing = items
      .flatMap((id) => calls.get(id)!.calls.map((c, i, a) => ({ c, next: a.slice(i + 1).find((x) => x.stage === c.stage) })))
      .filter((x) => x.c.error);
    expect(failing).toHaveLength(1);
    expect(failing[0].c.stage).toMatch(/^juror /);
    expect(failing[0].c.error).toMatch(/^reply refused: /);
    expect(failing[0].c.reply).toBe('I vote for the second option.');
    expect(failing[0].next?.error).toBeUndefined();
    expect(failing[0].next?.messages.map((m) => m.content).join('\n')).toMatch(/could not be parsed/);
  });

  it.skipIf(!CHROMIUM)(
    'in the browser: the trace of the item shows the recorded calls, the refused one marked',
    async () => {
      const id = items.find((x) => calls.get(x)!.calls.some((c) => c.error))!;
      const b = await openTestBrowser(ex.url);
      try {
        const page = b.page;
        await page.goto(`${ex.url}/#/runs?run=${RUN}&item=${encodeURIComponent(id)}`);
        await page.getByTestId('llm-calls').locator('summary').first().click();
        await page.getByTestId('llm-call').first().waitFor();
        expect(await page.getByTestId('llm-call').count()).toBe(calls.get(id)!.calls.length);
        expect(await page.getByTestId('llm-calls-source').textContent()).toMatch(/calls recorded in the run dir \(llm\/\)/);
        // the nested timeline: agent → step → call, each agent's tokens the sum of its recorded calls'
        const rec = calls.get(id)!.calls;
        expect(await page.getByTestId('tl-call').count()).toBe(rec.length);
        const agents = [...new Set(rec.map((c) => c.stage.split(' · ')[0]))];
        expect(await page.getByTestId('tl-agent').evaluateAll((els) => els.map((e) => e.getAttribute('data-agent')))).toEqual(agents);
        for (const a of agents) {
          const mine = rec.filter((c) => c.stage.split(' · ')[0] === a);
          const tokens = mine.reduce((x, c) => x + (c.tokens?.total ?? 0), 0);
          expect(await page.locator(`[data-testid=tl-agent][data-agent="${a}"] > [data-testid=tl-agent-cost]`).textContent()).toMatch(
            new RegExp(
              `^${mine.length} calls? · ${tokens.toLocaleString('en-US')} tokens.* ms${mine.length > 1 ? ' summed call time \\(calls may overlap: not elapsed time\\)' : ''}$`,
            ),
          );
        }
        const bad = page.locator('[data-testid=llm-call].failed');
        expect(await bad.count()).toBe(1);
        expect(await bad.getAttribute('data-stage')).toMatch(/^juror /);
        await bad.getByTestId('call-open').locator('summary').click();
        expect(await bad.getByTestId('call-error').textContent()).toMatch(/^reply refused: /);
        expect(await bad.getByTestId('call-reply').textContent()).toBe('I vote for the second option.');
        expect(b.pageErrors).toEqual([]);
        expect(b.external).toEqual([]);
      } finally {
        await b.close();
      }
    },
    120_000,
  );
});
