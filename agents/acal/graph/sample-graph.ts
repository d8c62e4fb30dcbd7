/** A small real hearsay argument graph (LegalBench hearsay train #1) used by tests and docs. */
import { readFileSync } from 'node:fs';
import { parseGraph } from './store.js';
import type { AcalGraph } from './types.js';

const SAMPLE = new URL('../fixtures/hearsay-rebecca.graph.json', import.meta.url);

export function loadSampleGraph(): AcalGraph {
  return parseGraph(JSON.parse(readFileSync(SAMPLE, 'utf8')), SAMPLE.pathname);
}
