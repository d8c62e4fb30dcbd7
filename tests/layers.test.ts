import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importCircles, LAYERS, layerViolations, readSources } from './support/import-layers.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The layer folders down the left edge of docs/architecture.md's picture, top (roof) first. */
function drawnLayers(doc: string): string[] {
  const section = doc.slice(doc.indexOf('## Layers'));
  const picture = section.slice(section.indexOf('```') + 3, section.indexOf('```', section.indexOf('```') + 3));
  return [...picture.matchAll(/^ ([a-z]+)\/ /gm)].map((m) => m[1]);
}

describe('import layers (docs/architecture.md)', () => {
  it('ranks the layers as docs/architecture.md draws them: src above web above serve above agents … core', () => {
    const drawn = drawnLayers(readFileSync(new URL('../docs/architecture.md', import.meta.url), 'utf8'));
    expect(drawn).toEqual(['src', 'web', 'serve', 'agents', 'eval', 'retrieval', 'indexer', 'corpora', 'core']);
    expect([...LAYERS].reverse()).toEqual(drawn);
  });

  it('no import of the project (test-support included) runs against core → corpora → indexer → retrieval → eval → agents → serve → web → src', () => {
    const files = readSources(root);
    expect(files.size).toBeGreaterThan(300);
    expect(files.has('core/errors.ts') && files.has('agents/case/experiment.ts')).toBe(true);
    const arrows = layerViolations(files).map((a) => `${a.from} -> ${a.to} (${a.rule})`);
    expect(arrows).toEqual([]);
  });

  it('flags an upward import (web → src and serve → web included), core importing the project, and agents importing the indexer', () => {
    const files = new Map([
      ['indexer/build.ts', "import { openRetriever } from '../retrieval/open.js';"],
      ['core/errors.ts', "import type { Question } from '../corpora/types.js';"],
      ['agents/mad/debate.ts', "import { createAnalyzer } from '../../indexer/analyzer.js';\nimport { x } from '../common/question-text.js';"],
      ['retrieval/open.ts', "const m = await import('../indexer/manifest.js');"],
      ['src/cli/main.ts', "import { runCase } from '../../agents/case/index.js';"],
      ['indexer/build.test.ts', "import { openRetriever } from '../retrieval/open.js';"],
      ['web/server/search-api.ts', "import { searchPassages } from '../../src/service/index-queries.js';"],
      ['serve/http/http-util.ts', "import { notFound } from '../../web/server/http-util.js';"],
      ['serve/query/index-queries.ts', "import { findEvidence } from '../../agents/case/find-evidence.js';"],
      ['src/cli/commands/serve.ts', "const { startExplorer } = await import('../../../web/server/server.js');"],
      ['web/server/server.ts', "import { allowedHostNames } from '../../serve/http/host-guard.js';"],
    ]);
    expect(layerViolations(files).map((a) => `${a.from} -> ${a.to}`)).toEqual([
      'indexer/build.ts -> retrieval/open.ts',
      'core/errors.ts -> corpora/types.ts',
      'agents/mad/debate.ts -> indexer/analyzer.ts',
      'web/server/search-api.ts -> src/service/index-queries.ts',
      'serve/http/http-util.ts -> web/server/http-util.ts',
    ]);
  });

  it('no import circle among the sources (type-only imports count)', () => {
    expect(importCircles(readSources(root))).toEqual([]);
  });

  it('finds circles of two and three files and a self-import, and not a diamond or a test importing its subject', () => {
    const files = new Map([
      ['eval/reproduce/run-grid.ts', "import { writeTable } from './table.js';"],
      ['eval/reproduce/table.ts', "import type { RunState } from './run-grid.js';"],
      ['indexer/docstore-blocks.ts', "import { checkOffsets } from './integrity.js';"],
      ['indexer/integrity.ts', "import { DOCSTORE_FILES } from './docstore-writer.js';"],
      ['indexer/docstore-writer.ts', "import { BlockColumnWriter } from './docstore-blocks.js';"],
      ['src/cli/main.ts', "const m = await import('./main.js');"],
      ['retrieval/a.ts', "import { b } from './b.js';\nimport { c } from './c.js';"],
      ['retrieval/b.ts', "import { d } from './d.js';"],
      ['retrieval/c.ts', "import { d } from './d.js';"],
      ['retrieval/d.ts', ''],
      ['retrieval/d.test.ts', "import { a } from './a.js';"],
    ]);
    expect(importCircles(files)).toEqual([
      ['eval/reproduce/run-grid.ts', 'eval/reproduce/table.ts'],
      ['indexer/docstore-blocks.ts', 'indexer/docstore-writer.ts', 'indexer/integrity.ts'],
      ['src/cli/main.ts'],
    ]);
  });

  it("a layer's test-support may not import a layer above it; tests/support/ may", () => {
    const files = new Map([
      ['eval/reproduce/test-support/scripted-all.ts', "import { scriptedArena } from '../../../agents/acal/test-support/scripted-arena.js';"],
      ['agents/case/test-support/fixtures.ts', "import { buildIndex } from '../../../indexer/build.js';"],
      ['tests/support/scripted-all.ts', "import { scriptedArena } from '../../agents/acal/test-support/scripted-arena.js';"],
    ]);
    expect(layerViolations(files).map((a) => `${a.from} -> ${a.to}`)).toEqual([
      'eval/reproduce/test-support/scripted-all.ts -> agents/acal/test-support/scripted-arena.ts',
    ]);
  });
});
