/**
 * How often ACAL's uncertainty band [0.49, 0.51] sends a claim to the judge under each semantics,
 * and how often plain fixed-point iteration (what lexcase ran before) reaches a different verdict
 * than the continuous QE model on cyclic graphs. Numbers for docs/acal.md.
 *
 *   npx tsx bench/acal-band.ts [--graphs 1000] [--scripted]
 *
 * Part 1: seeded random ACAL-shaped graphs (claim τ = 0.5; 2 agents per side with 2–5 arguments
 * each, rubric base scores uniform in [0.3, 0.9]; each unordered pair of arguments related, in both directions, with probability p:
 * support within a side, attack across sides), p = 1/2 and p = 1; and each ordered pair related
 * on its own with p = 1/2 ("directed").
 * Part 2 (--scripted): ACAL on the bundled LegalBench hearsay items against the scripted
 * OpenAI-compatible server (tests/support), every saved graph recomputed under each semantics.
 * Runs with tsx from the repository (it uses test support code, so it is not part of dist).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PAPER_DEFAULTS } from '../agents/acal/graph/types.js';
import { indexQbaf } from '../agents/acal/semantics/graph-index.js';
import { computeStrengths, quadraticEnergyUpdate, SEMANTICS } from '../agents/acal/semantics/index.js';
import type { Qbaf, QbafEdge, SemanticsName } from '../agents/acal/semantics/types.js';
import { createRng } from '../core/rng.js';

const { values } = parseArgs({ options: { graphs: { type: 'string', default: '1000' }, scripted: { type: 'boolean', default: false } } });
const N = Number(values.graphs);
const [lo, hi] = PAPER_DEFAULTS.band;
const inBand = (x: number) => x >= lo && x <= hi;

function randomGraph(rng: () => number, p: number, directed: boolean): Qbaf {
  const nodes: Qbaf['nodes'] = [{ id: 'claim', base: PAPER_DEFAULTS.claimBase }];
  const edges: QbafEdge[] = [];
  // two agents per side, 2–5 arguments each, rubric base scores in [0.3, 0.9]
  const side = (prefix: string, kind: 'support' | 'attack') =>
    Array.from({ length: 2 }).flatMap((_, agent) =>
      Array.from({ length: 2 + Math.floor(rng() * 4) }, (_, i) => {
        const id = `${prefix}${agent}_${i}`;
        nodes.push({ id, base: 0.3 + 0.6 * rng() });
        edges.push({ from: id, to: 'claim', kind });
        return id;
      }),
    );
  const args = [...side('s', 'support'), ...side('a', 'attack')];
  const kindOf = (x: string, y: string) => (x[0] === y[0] ? 'support' : 'attack');
  for (let i = 0; i < args.length; i++)
    for (let j = directed ? 0 : i + 1; j < args.length; j++) {
      if (i === j || rng() >= p) continue;
      edges.push({ from: args[i], to: args[j], kind: kindOf(args[i], args[j]) });
      if (!directed) edges.push({ from: args[j], to: args[i], kind: kindOf(args[i], args[j]) });
    }
  return { nodes, edges };
}

/** Plain synchronous fixed-point iteration σ ← f(σ) from τ (the old first attempt). */
function plainIteration(q: Qbaf): number | null {
  const g = indexQbaf(q);
  let s = new Map(g.ids.map((id) => [id, g.base.get(id)!]));
  for (let it = 0; it < 1000; it++) {
    const t = new Map(
      g.ids.map((id) => [
        id,
        quadraticEnergyUpdate(
          g.base.get(id)!,
          g.supporters.get(id)!.map((x) => s.get(x)!),
          g.attackers.get(id)!.map((x) => s.get(x)!),
        ),
      ]),
    );
    let r = 0;
    for (const id of g.ids) r = Math.max(r, Math.abs(t.get(id)! - s.get(id)!));
    s = t;
    if (r < 1e-9) return s.get('claim')!;
  }
  return null;
}

function part1(p: number, directed = false) {
  const rng = createRng(2026 + Math.round(p * 100) + (directed ? 1 : 0));
  const band: Record<string, number> = Object.fromEntries(SEMANTICS.map((s) => [s, 0]));
  const notConverged: Record<string, number> = Object.fromEntries(SEMANTICS.map((s) => [s, 0]));
  let flips = 0,
    plainStuck = 0;
  for (let n = 0; n < N; n++) {
    const q = randomGraph(() => rng.next(), p, directed);
    for (const s of SEMANTICS) {
      const r = computeStrengths(q, s);
      if (inBand(r.strengths.claim)) band[s]++;
      if (!r.converged) notConverged[s]++;
      if (s === 'quadratic') {
        const old = plainIteration(q);
        if (old === null) plainStuck++;
        else if (old >= 0.5 !== r.strengths.claim >= 0.5) flips++;
      }
    }
  }
  return { p, directed, graphs: N, inBand: band, notConverged, qePlainVsContinuousVerdictFlips: flips, qePlainIterationNotSettled: plainStuck };
}

async function part2() {
  const { startScriptedServer } = await import('../tests/support/scripted-openai-server.js');
  const { scriptedArena } = await import('../agents/acal/test-support/scripted-arena.js');
  const { runAcal } = await import('../agents/acal/experiment.js');
  await import('../agents/systems.js'); // the system list hands itself to eval: the run's report gets ACAL's section
  const { readGraph } = await import('../agents/acal/graph/store.js');
  const { recompute } = await import('../agents/acal/graph/recompute.js');
  const { loadPassages } = await import('../corpora/registry.js');
  const { buildIndex } = await import('../indexer/build.js');
  const { createChatModel } = await import('../core/llm/factory.js');
  const { llmConfigSchema } = await import('../core/config.js');
  const { closeSparseIndexes } = await import('../retrieval/open.js');
  const dir = mkdtempSync(join(tmpdir(), 'acal-band-'));
  const srv = await startScriptedServer(scriptedArena());
  try {
    const passages = [];
    for await (const p of loadPassages('legal_corpus')) passages.push(p);
    await buildIndex(passages, { out: join(dir, 'idx'), corpusName: 'legal_corpus', methods: ['bm25'], workers: 0 });
    const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0 }));
    const runDir = join(dir, 'run');
    const r = await runAcal({ task: 'hearsay', runDir, llm, indexDir: join(dir, 'idx'), iterations: 100 });
    const band: Record<string, number> = Object.fromEntries(SEMANTICS.map((s) => [s, 0]));
    for (const item of r.results) {
      const g = readGraph(runDir, item.id);
      for (const s of SEMANTICS) if (recompute({ ...g, settings: { ...g.settings, semantics: s as SemanticsName } }).inBand) band[s]++;
    }
    return { items: r.results.length, inBand: band };
  } finally {
    await srv.close();
    await closeSparseIndexes();
    rmSync(dir, { recursive: true, force: true });
  }
}

const out: Record<string, unknown> = { half: part1(0.5), full: part1(1), halfDirected: part1(0.5, true) };
if (values.scripted) out.scriptedHearsay = await part2();
console.log(JSON.stringify(out, null, 2));
