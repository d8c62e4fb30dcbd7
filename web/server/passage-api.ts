/**
 * The passage page (GET /api/passage?id=): the passage's text and metadata from the served index,
 * and where it turns up in the runs under --runs — which items' traces hold it, at which place in
 * the trace (an advocate's tool call, a MAD evidence pool, a retrieval run's top 10, …). Trace
 * files are scanned on request, at most MAX_TRACES of them (the reply says how many were read).
 */
import { readdirSync } from 'node:fs';
import { readRegularFile } from '../../core/read-regular.js';
import { join } from 'node:path';
import { z } from 'zod';
import { tracesDir } from '../../eval/run-dir.js';
import type { IndexContext } from './index-context.js';
import { listRuns, resolvesInside } from './runs.js';

export const passageQuerySchema = z.object({ id: z.string().min(1).max(500) }).strict();

const MAX_TRACES = 5000;
const MAX_HITS = 200;

/** Where `id` occurs in a parsed trace: the first path to a string equal to it ("advocates › toolCalls › ids"). */
export function placeOf(value: unknown, id: string, path: string[] = []): string | null {
  if (value === id) return path.filter((p) => !/^\d+$/.test(p)).join(' › ') || '(top level)';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = placeOf(value[i], id, [...path, String(i)]);
      if (p) return p;
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'runner') continue;
      const p = placeOf(v, id, [...path, k]);
      if (p) return p;
    }
  }
  return null;
}

export async function passagePage(ix: IndexContext | undefined, runsRoot: string | undefined, id: string) {
  const doc = ix ? await ix.docs.get(id).catch(() => undefined) : undefined;
  const found: { run: string; item: string; place: string }[] = [];
  let scanned = 0;
  let truncated = false;
  if (runsRoot) {
    const needle = JSON.stringify(id);
    for (const run of await listRuns(runsRoot)) {
      const dir = tracesDir(run.dir);
      let files: string[];
      try {
        files = readdirSync(dir)
          .filter((f) => f.endsWith('.json'))
          .sort();
      } catch {
        continue;
      }
      for (const f of files) {
        if (scanned >= MAX_TRACES || found.length >= MAX_HITS) {
          truncated = true;
          break;
        }
        const file = join(dir, f);
        if (!resolvesInside(run.root, file)) continue;
        scanned++;
        const text = await readRegularFile(file).catch(() => ''); // a FIFO trace is skipped, not waited on
        if (!text.includes(needle)) continue;
        let t: Record<string, unknown>;
        try {
          t = JSON.parse(text);
        } catch {
          continue;
        }
        const place = placeOf(t, id);
        if (place) found.push({ run: run.id, item: typeof t.id === 'string' ? t.id : f.replace(/\.json$/, ''), place });
      }
    }
  }
  return {
    id,
    inIndex: !!doc,
    index: ix ? { corpus: ix.manifest.corpus.name, passages: ix.manifest.corpus.passages } : null,
    passage: doc ? { title: doc.title ?? null, source: doc.source ?? null, text: doc.text, chars: doc.text.length } : null,
    retrievedIn: found,
    scanned,
    truncated,
  };
}
