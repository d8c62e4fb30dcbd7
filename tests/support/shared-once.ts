/**
 * sharedOnce(name, build): a JSON-able value (paths to what `build` wrote) made once per run of the
 * slow tier and shared by its test files. The first caller builds it in a folder of its own under the
 * run's shared dir (tests/support/pack-dir-setup.ts) holding a lock dir; the others wait and read the
 * same value. After a failed build the lock goes, and the next caller tries again in a clean folder.
 * Where no run provides that dir (a file run on its own, outside the slow tier), it returns undefined
 * and the caller builds its own.
 *
 *   const idx = (await sharedOnce('my-index', (dir) => buildInto(dir))) ?? (await buildInto(own));
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

export async function sharedOnce<T>(name: string, build: (dir: string) => Promise<T>): Promise<T | undefined> {
  const shared = inject('packDir');
  if (!shared) return undefined;
  const dir = join(shared, name);
  const done = join(shared, `${name}.json`);
  const lock = join(shared, `${name}.lock`);
  for (;;) {
    if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8')) as T;
    try {
      mkdirSync(lock);
    } catch {
      await new Promise((r) => setTimeout(r, 200)); // another file is building it
      continue;
    }
    try {
      if (existsSync(done)) continue;
      rmSync(dir, { recursive: true, force: true }); // what a failed build left
      mkdirSync(dir, { recursive: true });
      const built = await build(dir);
      writeFileSync(`${done}.tmp`, JSON.stringify(built));
      renameSync(`${done}.tmp`, done);
      return built;
    } finally {
      rmdirSync(lock); // after a failed build the next caller tries again
    }
  }
}
