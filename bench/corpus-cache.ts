/**
 * The benchmark's data on disk: one JSONL corpus and one queries file per (size, seed), generated
 * once and reused across runs (keyed by generator version), under the bench work dir.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GENERATOR_VERSION, syntheticQueries, writeSyntheticJsonl, type CorpusProfile, type JsonlStats } from './synthetic.js';

export interface CorpusFiles {
  corpusFile: string;
  queriesFile: string;
  stats: JsonlStats & { generateS: number; cached: boolean };
}

export async function ensureCorpus(workDir: string, n: number, seed: number, queryCount: number, profile: CorpusProfile = 'bench'): Promise<CorpusFiles> {
  const dir = join(workDir, 'data');
  await mkdir(dir, { recursive: true });
  const base = join(dir, `${profile === 'zipf' ? 'zipf' : 'synthetic'}-v${GENERATOR_VERSION}-s${seed}-n${n}`);
  const corpusFile = `${base}.jsonl`;
  const statsFile = `${base}.stats.json`;
  const queriesFile = `${base}.queries-${queryCount}.json`;
  let stats: CorpusFiles['stats'];
  if (existsSync(corpusFile) && existsSync(statsFile)) {
    stats = { ...(JSON.parse(await readFile(statsFile, 'utf8')) as CorpusFiles['stats']), cached: true };
  } else {
    const t = performance.now();
    const s = await writeSyntheticJsonl(corpusFile, { n, seed, profile });
    stats = { ...s, generateS: Math.round((performance.now() - t) / 10) / 100, cached: false };
    await writeFile(statsFile, JSON.stringify(stats, null, 2));
  }
  if (!existsSync(queriesFile)) {
    await writeFile(queriesFile, JSON.stringify(syntheticQueries({ count: queryCount, seed, profile })));
  }
  return { corpusFile, queriesFile, stats };
}
