/**
 * The query-service tests' index: 120 passages of the bundled legal_corpus, 40 from each of the
 * Federal Rules of Evidence, the Constitution and an Arkansas opinion, built into `dir`.
 */
import { loadPassages } from '../../../corpora/registry.js';
import type { Passage } from '../../../corpora/types.js';
import { buildIndex } from '../../../indexer/build.js';

export const LEGAL_120_SOURCES = ['cap_arkansas_sample', 'fre', 'us_constitution'];

export async function buildLegal120(dir: string, methods: string[]): Promise<void> {
  const passages: Passage[] = [];
  const per = new Map<string, number>();
  for await (const p of loadPassages('legal_corpus')) {
    if (!LEGAL_120_SOURCES.includes(p.source) || (per.get(p.source) ?? 0) >= 40) continue;
    per.set(p.source, (per.get(p.source) ?? 0) + 1);
    passages.push(p);
  }
  await buildIndex(passages, { out: dir, methods, workers: 0 });
}
