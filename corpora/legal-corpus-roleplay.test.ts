/**
 * The legal_corpus rules come from a role-play group's site (corpora/data/legal_corpus/SOURCE.md),
 * which also carries four rules it invented for its own courts and that exist in no official text:
 * FRE 416 (evidence "from the Roblox platform"), FRCP 88 (voice-chat proceedings), FRCP 89
 * (absentia) and FRCP 90 (suspension for "incompatibility with ROBLOX") — 9 passages, removed on
 * 2026-11-28. None of their ids or texts may be bundled: not in any corpus, not in the shipped dense
 * vectors, and `lexcase evidence` (the built CLI, as a user runs it) must not offer them as law.
 * Real FRE numbers of article IV end at 415 and real FRCP at 87 (with the Supplemental Rules).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPrebuiltVectors } from '../indexer/embed/prebuilt.js';
import { runBuiltCli } from '../tests/support/run-built-cli.js';
import { collect } from '../tests/support/collect.js';
import { CORPORA, loadPassages } from './registry.js';

const REMOVED_IDS = ['fre-416#p0', 'fre-416#p1', 'fre-416#p2', 'fre-416#p3', 'frcp-88#p0', 'frcp-89#p0', 'frcp-89#p1', 'frcp-89#p2', 'frcp-90#p0'];
/** A phrase of each removed passage, as the site wrote it. */
const REMOVED_TEXTS = [
  'Rule 416. Admissible Evidence (On-Site/Off-Site)',
  'In-Site evidence shall be defined as any evidence collected from the Roblox platform',
  'New evidence may not be presented within thirty-six (36) hours of a trial',
  'Off-site evidence must contain reliable proof that an online account indeed belongs to the subject',
  'Off-site evidence that qualifies under Sections c, d, and f of this rule',
  'Rule 88. Archival of Voice Proceedings',
  'No court shall conduct any part of a judicial proceeding via voice chat',
  'Rule 89. Absentia Rule',
  'A defendant qualifies for a proceeding in absentia if he/she',
  'Judges are highly encouraged to work around scheduling conflicts',
  'Rule 90. Suspension of Rules',
  'upon public publication of the reason of incompatibility with ROBLOX',
];

const ruleNumber = (id: string, prefix: string): number | null => {
  const m = new RegExp(`^${prefix}-(\\d+)`).exec(id);
  return m ? Number(m[1]) : null;
};

const dir = mkdtempSync(join(tmpdir(), 'lexcase-roleplay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the role-play rules of the legal_corpus source are not bundled', () => {
  it('no bundled corpus holds their ids, their texts, or a rule number the official FRE / FRCP do not have', async () => {
    for (const name of Object.keys(CORPORA)) {
      const passages = await collect(loadPassages(name));
      expect(passages.length, name).toBe(CORPORA[name].passages);
      expect(
        passages.filter((p) => REMOVED_IDS.includes(p.id)).map((p) => p.id),
        name,
      ).toEqual([]);
      const texts = passages.map((p) => `${p.title ?? ''}\n${p.text}`);
      for (const phrase of REMOVED_TEXTS) expect(texts.filter((t) => t.includes(phrase)).length, `${name}: "${phrase}"`).toBe(0);
      expect(texts.filter((t) => /roblox/i.test(t)).length, `${name}: Roblox`).toBe(0);
      const fre = passages.map((p) => ruleNumber(p.id, 'fre')).filter((n): n is number => n !== null);
      const frcp = passages.map((p) => ruleNumber(p.id, 'frcp')).filter((n): n is number => n !== null);
      expect(
        fre.filter((n) => n > 415 && n < 500),
        `${name}: FRE article IV beyond 415`,
      ).toEqual([]);
      expect(
        frcp.filter((n) => n > 87),
        `${name}: FRCP beyond 87`,
      ).toEqual([]);
      if (name === 'legal_corpus') {
        // the rules themselves are still there: 115 FRE and 406 FRCP passages
        expect(fre.length).toBe(115);
        expect(frcp.length).toBe(406);
      }
    }
  });

  it('the shipped use-lite vectors of the default corpus have no row for them', async () => {
    const pv = await readPrebuiltVectors('default-use-lite');
    expect(pv.ids.filter((id) => REMOVED_IDS.includes(id))).toEqual([]);
    expect(pv.ids).toHaveLength(CORPORA.default.passages);
  });

  it('`lexcase evidence "Evidence collected on-site is admissible" --offline` on the default index finds none of them', { timeout: 180_000 }, async () => {
    const b = await runBuiltCli(['index', 'build', 'default', '--out', 'idx', '--methods', 'bm25,qld'], { cwd: dir, timeoutMs: 120_000 });
    expect(b.code, b.stderr).toBe(0);
    const r = await runBuiltCli(['evidence', 'Evidence collected on-site is admissible', '--offline', '--index', 'idx', '--json'], {
      cwd: dir,
      timeoutMs: 120_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { evidence: { id: string; text: string }[] };
    expect(out.evidence.length).toBeGreaterThan(0);
    expect(out.evidence.map((e) => e.id).filter((id) => REMOVED_IDS.includes(id))).toEqual([]);
    expect(out.evidence.filter((e) => /roblox|on-site\/off-site/i.test(e.text)).map((e) => e.id)).toEqual([]);
  });
});
