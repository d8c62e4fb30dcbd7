import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { layerViolations, readSources } from './support/import-layers.js';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('import layers (docs/architecture.md)', () => {
  it('no import of the project runs against core → corpora → indexer → retrieval → eval → agents → src/web', () => {
    const files = readSources(root);
    expect(files.size).toBeGreaterThan(300);
    expect(files.has('core/errors.ts') && files.has('agents/case/experiment.ts')).toBe(true);
    const arrows = layerViolations(files).map((a) => `${a.from} -> ${a.to} (${a.rule})`);
    expect(arrows).toEqual([]);
  });

  it('flags an upward import, core importing the project, and agents importing the indexer', () => {
    const files = new Map([
      ['indexer/build.ts', "import { openRetriever } from '../retrieval/open.js';"],
      ['core/errors.ts', "import type { Question } from '../corpora/types.js';"],
      ['agents/mad/debate.ts', "import { createAnalyzer } from '../../indexer/analyzer.js';\nimport { x } from '../common/question-text.js';"],
      ['retrieval/open.ts', "const m = await import('../indexer/manifest.js');"],
      ['src/cli/main.ts', "import { runCase } from '../../agents/case/index.js';"],
      ['indexer/build.test.ts', "import { openRetriever } from '../retrieval/open.js';"],
    ]);
    expect(layerViolations(files).map((a) => `${a.from} -> ${a.to}`)).toEqual([
      'indexer/build.ts -> retrieval/open.ts',
      'core/errors.ts -> corpora/types.ts',
      'agents/mad/debate.ts -> indexer/analyzer.ts',
    ]);
  });
});
