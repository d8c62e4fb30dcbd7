/**
 * How often ACAL's uncertainty band [0.49, 0.51] sends a claim to the judge under each semantics,
 * and how often plain fixed-point iteration (what lexcase ran before) reaches a different verdict
 * than the continuous QE model on cyclic graphs. Numbers for docs/acal.md.
 *
 *   npx tsx bench/acal-band.ts [--graphs 1000] [--scripted] [--write docs/acal.md]
 *
 * --write FILE: rewrite FILE's generated blocks (`<!-- generated:acal-band:NAME -->` …
 * `<!-- /generated:acal-band:NAME -->`; NAME compare, band) from this run: the QE-vs-acal-compat table and
 * its prose counts, and the band table (its scripted row needs --scripted). Without it, JSON on stdout.
 *
 * Part 1: seeded random ACAL-shaped graphs (claim τ = 0.5; 2 agents per side with 2–5 arguments
 * each, rubric base scores uniform in [0.3, 0.9]; each unordered pair of arguments related, in both directions, with probability p:
 * support within a side, attack across sides), p = 1/2 and p = 1; and each ordered pair related
 * on its own with p = 1/2 ("directed").
 * Part 2 (--scripted): ACAL on the bundled LegalBench hearsay items against the scripted
 * OpenAI-compatible server (tests/support), every saved graph recomputed under each semantics.
 * Runs with tsx from the repository (it uses test support code, so it is not part of dist).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compareSemantics } from '../agents/acal/graph/compare.js';
import { loadSampleGraph } from '../agents/acal/graph/sample-graph.js';
import { PAPER_DEFAULTS } from '../agents/acal/graph/types.js';
import { indexQbaf } from '../agents/acal/semantics/graph-index.js';
import { computeStrengths, quadraticEnergyUpdate, SEMANTICS } from '../agents/acal/semantics/index.js';
import type { Qbaf, QbafEdge, SemanticsName } from '../agents/acal/semantics/types.js';
import { createRng } from '../core/rng.js';

const { values } = parseArgs({
  options: { graphs: { type: 'string', default: '1000' }, scripted: { type: 'boolean', default: false }, write: { type: 'string' } },
});
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
  // QE against acal-compat on the same graphs (docs/acal.md "How the faithful semantics and acal-compat differ")
  const cmp = {
    sameVerdict: 0,
    sumAbsDiff: 0,
    extremeQe: 0,
    extremeCompat: 0,
    qeFollowsTotal: 0,
    unequalCounts: 0,
    qeFollowsMoreArgs: 0,
    compatFollowsMean: 0,
  };
  const extreme = (x: number) => x < 0.05 || x > 0.95;
  for (let n = 0; n < N; n++) {
    const q = randomGraph(() => rng.next(), p, directed);
    const claim: Record<string, number> = {};
    for (const s of SEMANTICS) {
      const r = computeStrengths(q, s);
      claim[s] = r.strengths.claim;
      if (inBand(r.strengths.claim)) band[s]++;
      if (!r.converged) notConverged[s]++;
      if (s === 'quadratic') {
        const old = plainIteration(q);
        if (old === null) plainStuck++;
        else if (old >= 0.5 !== r.strengths.claim >= 0.5) flips++;
      }
    }
    const yes = (x: number) => x >= PAPER_DEFAULTS.threshold;
    const [qe, compat] = [claim.quadratic, claim['acal-compat']];
    if (yes(qe) === yes(compat)) cmp.sameVerdict++;
    cmp.sumAbsDiff += Math.abs(qe - compat);
    if (extreme(qe)) cmp.extremeQe++;
    if (extreme(compat)) cmp.extremeCompat++;
    const bases = (prefix: string) => q.nodes.filter((x) => x.id.startsWith(prefix)).map((x) => x.base);
    const [sup, att] = [bases('s'), bases('a')];
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    if (yes(qe) === sum(sup) > sum(att)) cmp.qeFollowsTotal++;
    if (sup.length !== att.length) {
      cmp.unequalCounts++;
      if (yes(qe) === sup.length > att.length) cmp.qeFollowsMoreArgs++;
    }
    if (yes(compat) === sum(sup) / sup.length > sum(att) / att.length) cmp.compatFollowsMean++;
  }
  const { sumAbsDiff, ...counts } = cmp;
  return {
    p,
    directed,
    graphs: N,
    inBand: band,
    notConverged,
    qePlainVsContinuousVerdictFlips: flips,
    qePlainIterationNotSettled: plainStuck,
    qeVsCompat: { ...counts, meanAbsDiff: sumAbsDiff / N },
  };
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

/** The bundled sample hearsay graph under QE and acal-compat (`lexcase acal show --compare`). */
function sample() {
  const c = compareSemantics(loadSampleGraph());
  const by = (s: SemanticsName) => c.find((x) => x.semantics === s)!;
  return { quadratic: by('quadratic'), dfquad: by('dfquad'), compat: by('acal-compat') };
}

const out = {
  sample: sample(),
  half: part1(0.5),
  full: part1(1),
  halfDirected: part1(0.5, true),
  scriptedHearsay: values.scripted ? await part2() : undefined,
};
if (!values.write) console.log(JSON.stringify(out, null, 2));
else {
  const f3 = (x: number) => x.toFixed(3);
  const ext = (x: number) => (x < 0.05 || x > 0.95 ? 1 : 0);
  const { quadratic: sq, dfquad: sd, compat: sc } = out.sample;
  const cmpRow = (label: string, r: ReturnType<typeof part1>) =>
    `| ${label} | ${r.qeVsCompat.sameVerdict}/${r.graphs} | ${f3(r.qeVsCompat.meanAbsDiff)} | ${r.qeVsCompat.extremeQe} / ${r.qeVsCompat.extremeCompat} | ${r.notConverged['acal-compat']} | ${r.inBand.quadratic} / ${r.inBand.dfquad} / ${r.inBand['acal-compat']} |`;
  const compare = [
    '',
    '| graphs | verdicts QE = compat | mean \\|σQE − σcompat\\| | σ(φ) extreme (<0.05 or >0.95): QE / compat | compat hit the 100-sweep cap | in band: QE / DF-QuAD / compat |',
    '|---|---|---|---|---|---|',
    `| sample hearsay graph | ${sq.thresholdVerdict === sc.thresholdVerdict ? 1 : 0}/1 (${sq.thresholdVerdict}${sq.thresholdVerdict === sc.thresholdVerdict ? '' : ` vs ${sc.thresholdVerdict}`}) | ${f3(Math.abs(sq.claimStrength - sc.claimStrength))} (${f3(sq.claimStrength)} vs ${f3(sc.claimStrength)}) | ${ext(sq.claimStrength)} / ${ext(sc.claimStrength)} | ${sc.converged ? 0 : 1} | ${+sq.inBand} / ${+sd.inBand} / ${+sc.inBand} |`,
    cmpRow('random, all pairs related', out.full),
    cmpRow('random, half the pairs related', out.half),
    '',
    `QE's verdict follows the side with the larger *total* base strength in ${out.full.qeVsCompat.qeFollowsTotal}/${N} and ${out.half.qeVsCompat.qeFollowsTotal}/${N}`,
    `of the graphs (all / half the pairs related) and the side with more arguments in ${out.full.qeVsCompat.qeFollowsMoreArgs}/${out.full.qeVsCompat.unequalCounts} and`,
    `${out.half.qeVsCompat.qeFollowsMoreArgs}/${out.half.qeVsCompat.unequalCounts} of the graphs with unequal counts; acal-compat's follows the side with the larger *mean* base`,
    `strength in ${out.full.qeVsCompat.compatFollowsMean}/${N} and ${out.half.qeVsCompat.compatFollowsMean}/${N}.`,
    '',
  ].join('\n');
  const bandRow = (label: string, r: ReturnType<typeof part1>) =>
    `| ${label} | ${r.inBand.quadratic} / ${r.inBand.dfquad} / ${r.inBand['acal-compat']} | ${r.notConverged.quadratic} / ${r.notConverged.dfquad} / ${r.notConverged['acal-compat']} | ${r.qePlainVsContinuousVerdictFlips} |`;
  const sh = out.scriptedHearsay;
  const band = [
    '',
    `| graphs (${N.toLocaleString('en-US')} each) | in band: QE / DF-QuAD / acal-compat | not converged: QE / DF-QuAD / compat | plain iteration vs continuous QE: verdict flips |`,
    '|---|---|---|---|',
    bandRow('half the pairs related (both directions)', out.half),
    bandRow('all pairs related (both directions)', out.full),
    bandRow('each ordered pair related with p = ½', out.halfDirected),
    ...(sh
      ? [
          `| scripted hearsay run (${sh.items} LegalBench items, scripted server; every graph recomputed under each semantics) | ${sh.inBand.quadratic} / ${sh.inBand.dfquad} / ${sh.inBand['acal-compat']} | — | — |`,
        ]
      : []),
    '',
  ].join('\n');
  let text = readFileSync(values.write, 'utf8');
  for (const [name, body] of Object.entries({ compare, band })) {
    const open = `<!-- generated:acal-band:${name} (npx tsx bench/acal-band.ts --graphs ${N}${values.scripted ? ' --scripted' : ''} --write ${values.write}) -->`;
    const re = new RegExp(`<!-- generated:acal-band:${name}[^>]*-->[\\s\\S]*?<!-- /generated:acal-band:${name} -->`);
    if (!re.test(text)) throw new Error(`${values.write} has no <!-- generated:acal-band:${name} --> … <!-- /generated:acal-band:${name} --> block`);
    if (name === 'band' && !sh) throw new Error('the band block has the scripted hearsay row: run with --scripted');
    text = text.replace(re, () => `${open}\n${body}\n<!-- /generated:acal-band:${name} -->`);
  }
  writeFileSync(values.write, text);
  console.log(`wrote ${values.write}`);
}
