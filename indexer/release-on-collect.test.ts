/**
 * A doc store a caller opened and dropped without close() releases its files when it is collected,
 * without Node's "Closing file descriptor N on garbage collection" warning. In CI's shared test
 * workers that warning, from a store an earlier file had dropped, landed in a later test's captured
 * stderr (src/cli/trec-commands.test.ts: "expected '(node:4016) Warning: Closing file des…' to be ''").
 */
import { mkdtemp, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, expect, it } from 'vitest';
import { syntheticPassages } from '../bench/synthetic.js';
import { buildIndex } from './build.js';
import { openDocStore } from './docstore.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let dir = '';
afterAll(() => rm(dir, { recursive: true, force: true }));

/** This process's open file descriptors on files under `under` (`fds`: their numbers). */
async function openUnder(under: string, fds?: Set<string>): Promise<string[]> {
  const out: string[] = [];
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target.startsWith(under)) {
      out.push(target);
      fds?.add(fd);
    }
  }
  return out;
}

it.runIf(process.platform === 'linux')('a dropped doc store closes its files when collected, with no GC warning', async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-release-'));
  const out = join(dir, 'idx');
  await buildIndex(syntheticPassages({ n: 60, seed: 3 }), { out, corpusName: 'synthetic-60', workers: 0, methods: ['bm25'] });
  const warnings: string[] = [];
  // the store's own descriptors: the test worker is shared (isolate: false), and a GC here may also close
  // handles another test file dropped, whose warnings are not this store's
  const ours = new Set<string>();
  const onWarning = (w: Error) => warnings.push(w.message);
  process.on('warning', onWarning);
  try {
    await (async () => {
      const store = await openDocStore(out);
      expect((await store.get(store.idAt(7)))?.text.length).toBeGreaterThan(0);
      // checked while the store is still referenced: once dropped, any GC (another allocation in this worker) may release it
      expect((await openUnder(out, ours)).length).toBeGreaterThan(0);
    })();
    // collect until the dropped store's files are released (the registry's callback runs after a GC)
    for (let i = 0; i < 100 && (await openUnder(out)).length > 0; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(await openUnder(out)).toEqual([]);
    expect(warnings.filter((m) => ours.has(/Closing file descriptor (\d+)/.exec(m)?.[1] ?? ''))).toEqual([]);
  } finally {
    process.off('warning', onWarning);
  }
});
