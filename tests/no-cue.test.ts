/**
 * Issue 27, item 4: nothing but a passage's text tells a model which kind of passage it is. The fx.index
 * mixes the bundled Bar Exam QA gold passages (ids mbe_N, source barexam_qa, no title) with
 * legal_corpus distractors (ids cap-…#pN / fre-…, case-name or rule titles, five other sources):
 * they differ in id shape, title and source. Every request of every system — CASE, ACAL, MAD,
 * 3-ply, EMAR, and the RAG baselines (CASE's bm25/qld RAG, MAD's single-agent RAG, ACAL's RAG) —
 * is recorded, against each system's sensible model and against the contract-fuzzing server (which
 * calls the search tools with random queries), and searched for anything that differs by kind:
 *  - no passage id, no title and no source name appears in any request;
 *  - every search result a model reads has a handle and text (and the score and rank every hit has);
 *  - every line that shows a passage under a handle ([P3] …, P3: …, Evidence 1 [P3]: …, [1] …)
 *    continues with that passage's own text, for both kinds — and both kinds are shown.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAcal } from '../agents/acal/experiment.js';
import { scriptedArena } from '../agents/acal/test-support/scripted-arena.js';
import { runCaseExperiment } from '../agents/case/experiment.js';
import { runMadExperiment } from '../agents/mad/experiment.js';
import { contractFuzz } from './support/contract-fuzz-server.js';
import { mixedIndexFixture, modelOn, runSystem, SENSIBLE, SYSTEMS } from './support/five-systems.js';
import { schemaConstrained, startScriptedServer, type RecordedRequest, type Script, type ScriptReply } from './support/scripted-openai-server.js';

const N = 3;
const fx = mixedIndexFixture('no-cue', N);
const requests: { run: string; r: RecordedRequest }[] = [];

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

async function recordRun(run: string, script: Script, go: (url: string, runDir: string) => Promise<unknown>): Promise<void> {
  const srv = await startScriptedServer(script);
  try {
    await go(srv.url, join(fx.dir, run));
    requests.push(...srv.requests.map((r) => ({ run, r })));
  } finally {
    await srv.close();
  }
}

/** The kind of the passage whose text `body` (shown after a handle) starts with, if any. */
function kindOfText(body: string, texts: { gold: string[]; distractor: string[] }): 'gold' | 'distractor' | undefined {
  const head = norm(body).replace(/^…\s*/, '').replace(/\s*…$/, '').slice(0, 40);
  if (head.length < 10) return undefined;
  if (texts.gold.some((t) => t.includes(head))) return 'gold';
  if (texts.distractor.some((t) => t.includes(head))) return 'distractor';
  return undefined;
}

const PASSAGE_LINE = [/^\s*Evidence \d+ \[(P\d+)\]: (.*)$/, /^\[(P\d+|\d+)\] (.*)$/, /^(P\d+): (.*)$/];

describe('no cue in anything but the text (every request of every system, recorded)', () => {
  it('records the requests of the five systems and the RAG baselines, against sensible and fuzzing models', async () => {
    for (const system of SYSTEMS) {
      await recordRun(`sensible-${system}`, schemaConstrained(SENSIBLE[system]()), (url, runDir) =>
        runSystem(system, { llm: modelOn(url), runDir, index: fx.index, n: N }),
      );
      await recordRun(`fuzz-${system}`, contractFuzz({ seed: 4 }), (url, runDir) => runSystem(system, { llm: modelOn(url), runDir, index: fx.index, n: N }));
    }
    const answer = (): ScriptReply => ({ content: JSON.stringify({ reasoning: 'r', answer: 'A' }) });
    for (const mode of ['bm25-rag', 'qld-rag'] as const)
      await recordRun(`baseline-${mode}`, schemaConstrained(answer), (url, runDir) =>
        runCaseExperiment({ system: 'baseline', mode, dataset: 'barexam', split: 'val', index: fx.index.dir, llm: modelOn(url), limit: N, k: 3, runDir }),
      );
    await recordRun('mad-single-rag', schemaConstrained(SENSIBLE.mad()), (url, runDir) =>
      runMadExperiment({ system: 'single-rag', dataset: 'barexam', split: 'val', index: fx.index.dir, llm: modelOn(url), limit: N, k: 3, runDir }),
    );
    await recordRun('acal-rag', schemaConstrained(scriptedArena()), (url, runDir) =>
      runAcal({ task: 'hearsay', system: 'rag', runDir, llm: modelOn(url), limit: N, k: 3, indexDir: fx.index.dir, iterations: 50 }),
    );
    expect(requests.length).toBeGreaterThan(200);
  }, 900_000);

  it('no request carries a passage id, a title or a source name', () => {
    const ids = new Set(fx.index.passages.map((p) => p.id));
    const allText = fx.index.passages.map((p) => norm(p.text)).join('\n');
    // titles that are not also written in some passage's text (a case may cite another by name)
    const titles = [...new Set(fx.index.passages.map((p) => p.title).filter((t): t is string => !!t && t.length >= 8 && !allText.includes(t)))];
    const sources = [...new Set(fx.index.passages.map((p) => p.source))].filter((s) => s.length >= 8);
    expect(titles.length).toBeGreaterThan(20);
    expect(sources).toEqual(expect.arrayContaining(['barexam_qa', 'cap_arkansas_sample']));
    const found = new Set<string>();
    for (const { run, r } of requests) {
      const body = JSON.stringify(r.body);
      for (const tok of body.split(/[^A-Za-z0-9_#.\-:/]+/)) for (const t of [tok, tok.replace(/[.:/-]+$/, '')]) if (ids.has(t)) found.add(`${run}: id ${t}`);
      for (const t of titles) if (body.includes(JSON.stringify(t).slice(1, -1))) found.add(`${run}: title ${t}`);
      for (const s of sources) if (new RegExp(`\\b${s}\\b`).test(body)) found.add(`${run}: source ${s}`);
    }
    expect([...found]).toEqual([]);
  });

  it('search results read by models have the same fields for every passage; every passage line continues with its own text; both kinds are shown', () => {
    const texts = {
      gold: fx.index.passages.filter((p) => fx.index.goldIds.has(p.id)).map((p) => norm(p.text)),
      distractor: fx.index.passages.filter((p) => fx.index.distractorIds.has(p.id)).map((p) => norm(p.text)),
    };
    const keySets = new Map<string, number>();
    const shown = { gold: 0, distractor: 0 };
    const unexplained: string[] = [];
    for (const { run, r } of requests) {
      for (const m of r.body.messages as { role: string; content: unknown }[]) {
        const content = typeof m.content === 'string' ? m.content : '';
        let json: { results?: Record<string, unknown>[] } | undefined;
        try {
          json = JSON.parse(content);
        } catch {
          json = undefined;
        }
        if (json && Array.isArray(json.results)) {
          for (const x of json.results) {
            const keys = Object.keys(x).sort().join(',');
            keySets.set(keys, (keySets.get(keys) ?? 0) + 1);
            const k = kindOfText(String(x.snippet ?? x.text ?? ''), texts);
            if (k) shown[k]++;
            else unexplained.push(`${run}: result ${JSON.stringify(x).slice(0, 120)}`);
          }
          continue;
        }
        for (const line of content.split('\n')) {
          const hit = PASSAGE_LINE.map((re) => re.exec(line)).find(Boolean);
          if (!hit) continue;
          const k = kindOfText(hit[2], texts);
          if (k) shown[k]++;
          else unexplained.push(`${run}: ${line.slice(0, 120)}`);
        }
      }
    }
    // the search tools' results, and MAD's one-snippet request: a handle and text (score and rank: every hit has them)
    expect([...keySets.keys()].filter((k) => k !== 'id,rank,score,snippet' && k !== 'id,text')).toEqual([]);
    expect(unexplained).toEqual([]);
    // eslint-disable-next-line no-console
    console.log(
      `no-cue: ${requests.length} requests of ${new Set(requests.map((x) => x.run)).size} runs; passages shown: ${shown.gold} gold-kind, ${shown.distractor} distractor; cues found: 0`,
    );
    expect(shown.gold).toBeGreaterThan(0);
    expect(shown.distractor).toBeGreaterThan(0);
  });
});
