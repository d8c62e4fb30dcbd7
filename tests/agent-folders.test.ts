/**
 * The agent systems' folders import one way only (issue 39): a system's own baselines live in its
 * folder (agents/mad/baselines.ts, agents/acal/baselines/, agents/case/baselines/ — CASE's, run by CASE's
 * experiment; agents/baselines is only their public surface `lexcase/agents/baselines`), and no two
 * agents/<x> folders import each other both ways (shared code goes down into agents/common).
 */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { mutualAgentImports, readSources } from './support/import-layers.js';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('agents/<x> folders', () => {
  it('no two of them import each other both ways', () => {
    const files = readSources(root);
    expect(files.has('agents/mad/debate.ts') && files.has('agents/case/baselines/baseline-system.ts')).toBe(true);
    expect(mutualAgentImports(files)).toEqual([]);
  });

  it('finds a pair that does (a dynamic import counts, agents/common too) and leaves one-way arrows and tests alone', () => {
    const files = new Map([
      ['agents/mad/index.ts', "export { createSingleRag } from '../baselines/mad.js';"],
      ['agents/baselines/mad.ts', "import { citedAnswer } from '../mad/cited-answer.js';"],
      ['agents/baselines/plugin.ts', "const s = await import('../case/report-section.js');"],
      ['agents/case/experiment.ts', "import { createBaseline } from '../baselines/baseline-system.js';\nimport { x } from '../common/question-text.js';"],
      ['agents/common/question-text.ts', "import { y } from '../case/personas.js';"],
      ['agents/emar/system.ts', "import { x } from '../common/question-text.js';"],
      ['agents/threeply/x.test.ts', "import { z } from '../emar/system.js';"],
      ['agents/emar/y.ts', "import { z } from '../threeply/types.js';"],
    ]);
    expect(mutualAgentImports(files)).toEqual([
      'baselines ⇄ case (agents/baselines/plugin.ts -> agents/case/report-section.ts; agents/case/experiment.ts -> agents/baselines/baseline-system.ts)',
      'baselines ⇄ mad (agents/baselines/mad.ts -> agents/mad/cited-answer.ts; agents/mad/index.ts -> agents/baselines/mad.ts)',
      'case ⇄ common (agents/case/experiment.ts -> agents/common/question-text.ts; agents/common/question-text.ts -> agents/case/personas.ts)',
    ]);
  });
});
