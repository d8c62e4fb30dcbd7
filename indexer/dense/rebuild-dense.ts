/**
 * rebuildDenseIndex(dir, opts) (`lexcase index dense DIR --rebuild`): embed every passage again into
 * a new dense part and put it in place of the one the index has, whatever that one holds — the way to
 * go from vectors a plain `index dense` refuses to resume or keep (another endpoint or model folder
 * under the same model name, resume-source.ts; vectors made from other texts) to the ones of the
 * embedder given, without deleting anything by hand.
 *
 * The new part is built beside the old one, in `<dir>/.dense-rebuild-<pid>/` (a stage holding a copy
 * of the manifest and the new LanceDB table, add-dense.ts as an index build's dense step), from the
 * index's own passages. Only once it is complete and checked (every passage, its ids) is it renamed
 * to `<dir>/dense` (the old part renamed aside first, then removed) and the manifest rewritten to
 * record it: a build that fails or is interrupted (Ctrl-C) removes the stage and leaves the old dense
 * part, its manifest entry and its dense-build.json as they were. A process killed between the
 * swap's two renames leaves no dense/: the next command that opens the index puts the old part back
 * (dense-swap.ts). Under the index dir's lock, as every writer of it. The dense part must be the index's own (dense/ inside it, table "passages").
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { acquireLock } from '../../core/dir-lock.js';
import { errors } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { realpathLoose } from '../../core/out-dir-rule.js';
import { openDocStore } from '../docstore.js';
import { readManifest, writeManifest, type Manifest } from '../manifest.js';
import { addDenseIndex, type AddDenseOptions } from './add-dense.js';
import { DEFAULT_DENSE_TABLE, DEFAULT_DENSE_URI } from './dense-section.js';
import { OLD_PREFIX, restoreDenseSwapLocked, STAGE_PREFIX } from './dense-swap.js';

export async function rebuildDenseIndex(dir: string, opts: Omit<AddDenseOptions, 'passages' | 'indexDir'> = {}): Promise<Manifest> {
  if ((opts.uri !== undefined && opts.uri !== DEFAULT_DENSE_URI) || (opts.table !== undefined && opts.table !== DEFAULT_DENSE_TABLE))
    throw errors.usage('--rebuild replaces the dense part inside the index dir (dense/, table "passages"); it takes no --dense-uri or --dense-table');
  const lock = acquireLock(`${realpathLoose(dir)}.lock`, dir, 'index dense --rebuild');
  try {
    // a --rebuild stopped between the two renames below left no dense/: its old part goes back first
    await restoreDenseSwapLocked(dir);
    const manifest = await readManifest(dir);
    const recorded = manifest.dense as { uri?: string; table?: string } | undefined;
    if (recorded && (recorded.uri !== DEFAULT_DENSE_URI || recorded.table !== DEFAULT_DENSE_TABLE))
      throw errors.usage(
        `--rebuild replaces the dense part inside ${dir}; its vectors are at ${recorded.uri} (table "${recorded.table}")`,
        'rerun `lexcase index dense` with that --dense-uri and --dense-table instead',
      );
    // stages and old parts an earlier --rebuild left when its process was killed (its lock is gone: we hold it)
    for (const e of await readdir(dir)) if (e.startsWith(STAGE_PREFIX) || e.startsWith(OLD_PREFIX)) await rm(join(dir, e), { recursive: true, force: true });
    const stage = join(dir, `${STAGE_PREFIX}${process.pid}`);
    const live = join(dir, DEFAULT_DENSE_URI);
    const old = join(dir, `${OLD_PREFIX}${process.pid}`);
    let built: Manifest;
    try {
      await mkdir(stage);
      // the stage's manifest: the index's, without a dense part (add-dense reads its passage count and corpus from it)
      const { dense: _dense, seal: _seal, ...rest } = manifest;
      await writeFile(join(stage, 'manifest.json'), JSON.stringify({ ...rest, methods: manifest.methods.filter((m) => m !== 'dense') }));
      const store = await openDocStore(dir);
      try {
        built = await addDenseIndex(stage, { ...opts, uri: DEFAULT_DENSE_URI, table: DEFAULT_DENSE_TABLE, passages: store.entries(), indexDir: dir });
      } finally {
        await store.close();
      }
    } catch (e) {
      // the build's own error is what the user reads; a stage that cannot be removed is said, and the next --rebuild removes it
      await rm(stage, { recursive: true, force: true, maxRetries: 3 }).catch((r: Error) => log.warn(`could not remove ${stage}: ${r.message}`));
      throw e;
    }
    // the swap: the old part aside, the new one in its place, then the manifest; a failure puts the old one back
    const hadOld = existsSync(live);
    if (hadOld) await rename(live, old);
    try {
      await rename(join(stage, DEFAULT_DENSE_URI), live);
      const latest = await readManifest(dir);
      const next: Manifest = { ...latest, methods: [...new Set([...latest.methods, 'dense'])], dense: built.dense };
      await writeManifest(dir, next);
      await rm(join(dir, 'dense-build.json'), { force: true });
      await Promise.all([rm(old, { recursive: true, force: true }), rm(stage, { recursive: true, force: true })]);
      return next;
    } catch (e) {
      if (hadOld && existsSync(old)) {
        await rm(live, { recursive: true, force: true });
        await rename(old, live);
      }
      await rm(stage, { recursive: true, force: true });
      throw e;
    }
  } finally {
    lock.release();
  }
}
