/**
 * A run gets a lexcase system's own report section only when that system ran it, as its config.json
 * records (`provenance.lexcaseSystem`), not when a system of the user's own chose the same name:
 * before, a user's system named "baseline" (or "case") got CASE's "CASE metrics" section, which
 * read its traces as CASE's.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../agents/systems.js';
import { writeReport } from './write-report.js';
import { runConstantSystem } from '../test-support/constant-system.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'own-section-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

// four Bar Exam-like items; the user's system answers A with a reasoning trace of its own
const items = ['mbe_1', 'mbe_2', 'mbe_3', 'mbe_4'].map((id, i) => ({ id, answer: 'ABCA'[i] }));
async function run(name: string, config: Record<string, unknown>, lexcaseSystem?: string) {
  const runDir = join(root, name);
  await runConstantSystem({ runDir, items, config, lexcaseSystem, confidence: 'high', trace: { reasoning: 'always A' } });
  const report = await writeReport(runDir, { iterations: 100 });
  const cfg = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')) as { provenance: Record<string, unknown> };
  return { sections: report.sections.map((s) => s.id), md: readFileSync(join(runDir, 'report.md'), 'utf8'), recorded: cfg.provenance.lexcaseSystem };
}

describe("a run's own section is its writer's, as config.json records it", () => {
  it('a system of your own named "baseline" or "case" gets no CASE section (null recorded)', async () => {
    for (const system of ['baseline', 'case']) {
      const r = await run(`user-${system}`, { system, dataset: 'mine' });
      expect(r.sections).not.toContain('case');
      expect(r.md).not.toContain('CASE metrics');
      expect(r.md).toContain('## Accuracy');
      expect(r.recorded).toBeNull();
    }
  });

  it("a run lexcase's baselines record (lexcaseSystem 'baseline') gets CASE's section", async () => {
    const r = await run('lexcase-baseline', { system: 'baseline/llm-only', mode: 'llm-only', dataset: 'barexam' }, 'baseline');
    expect(r.sections).toContain('case');
    expect(r.md).toContain('CASE metrics');
    expect(r.recorded).toBe('baseline');
  });

  it('a run dir written before the field: by its name only where the name is one lexcase records (baseline + a baseline mode); a resume records its writer', async () => {
    const older = (name: string, config: Record<string, unknown>) => {
      const dir = join(root, name);
      mkdirSync(join(dir, 'traces'), { recursive: true });
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ seed: 13, config, provenance: { lexcaseVersion: '0.1.0', gitSha: 'unknown', items: 4 } }));
      const lines = items.map((q) => JSON.stringify({ id: q.id, prediction: 'A', gold: q.answer, correct: q.answer === 'A', ms: 1 }));
      writeFileSync(join(dir, 'results.jsonl'), lines.join('\n') + '\n');
      return dir;
    };
    const oldLexcase = older('old-lexcase-baseline', { system: 'baseline', mode: 'llm-only', dataset: 'barexam' });
    expect((await writeReport(oldLexcase, { iterations: 100 })).sections.map((s) => s.id)).toContain('case');
    const oldUser = older('old-user-baseline', { system: 'baseline', dataset: 'mine' });
    expect((await writeReport(oldUser, { iterations: 100 })).sections.map((s) => s.id)).not.toContain('case');
    // resumed by the user's system: its provenance now records it (null), and the report stays without CASE's section
    const r = await run('old-user-baseline', { system: 'baseline', dataset: 'mine' });
    expect(r.recorded).toBeNull();
    expect(r.sections).not.toContain('case');
  });
});
