// Preloaded into a CLI child (`NODE_OPTIONS=--import <this file>`): a disk that fills up, under one
// directory, after a given number of writes, the same on every machine (no mount, no root).
//
//   LEXCASE_TEST_FULL_DISK_DIR=<dir>      writes to files under <dir> are counted …
//   LEXCASE_TEST_FULL_DISK_AFTER=<n>      … and every one after the first n fails with ENOSPC
//   LEXCASE_TEST_FULL_DISK_CODE=EDQUOT    (optional) fail with this code instead (EDQUOT, EROFS, EIO)
//
// Writes of the requests an item keeps in under-way/ are neither counted nor failed.
// A failing write behaves as on a real full disk: the file is created (or left as it was, for an
// append), then the write fails with the system error. Covered: fs.promises writeFile / appendFile
// and their Sync and callback forms, which is how lexcase writes run dirs; patched on the CommonJS
// module and pushed to the ESM named exports (`import { writeFile } from 'node:fs/promises'`).
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.env.LEXCASE_TEST_FULL_DISK_DIR;
if (root) {
  const dir = resolve(root);
  let left = Number(process.env.LEXCASE_TEST_FULL_DISK_AFTER ?? 0);
  const code = process.env.LEXCASE_TEST_FULL_DISK_CODE ?? 'ENOSPC';
  const text = { ENOSPC: 'no space left on device', EDQUOT: 'disk quota exceeded', EROFS: 'read-only file system', EIO: 'i/o error' }[code] ?? code;
  const pathOf = (f) => (typeof f === 'string' ? f : f instanceof URL ? fileURLToPath(f) : Buffer.isBuffer(f) ? f.toString() : undefined);
  const fails = (f) => {
    const p = pathOf(f);
    if (p === undefined || !(resolve(p) + sep).startsWith(dir + sep)) return false;
    // the requests kept in under-way/ (eval/sent-journal.ts): one write per request sent, and lexcase lets
    // their failure go, so they are not counted (the count stays the run's own writes per item)
    if ((resolve(p) + sep).includes(`${sep}under-way${sep}`)) return false;
    return left-- <= 0;
  };
  const error = (syscall, f) => Object.assign(new Error(`${code}: ${text}, ${syscall} '${pathOf(f)}'`), { code, syscall, path: pathOf(f) });
  const p = fs.promises;
  const { writeFile, appendFile } = p;
  p.writeFile = async (f, data, o) => {
    if (!fails(f)) return writeFile(f, data, o);
    await writeFile(f, '');
    throw error('write', f);
  };
  p.appendFile = async (f, data, o) => {
    if (!fails(f)) return appendFile(f, data, o);
    await appendFile(f, '');
    throw error('write', f);
  };
  const { writeFileSync, appendFileSync } = fs;
  fs.writeFileSync = (f, data, o) => {
    if (!fails(f)) return writeFileSync(f, data, o);
    writeFileSync(f, '');
    throw error('write', f);
  };
  fs.appendFileSync = (f, data, o) => {
    if (!fails(f)) return appendFileSync(f, data, o);
    appendFileSync(f, '');
    throw error('write', f);
  };
  const cb = (name, sync) => {
    const orig = fs[name];
    fs[name] = (f, data, o, done) => {
      const callback = typeof o === 'function' ? o : done;
      if (!fails(f)) return done === undefined ? orig(f, data, o) : orig(f, data, o, done);
      try {
        sync(f, '');
      } catch {
        /* as far as it gets */
      }
      process.nextTick(callback, error('write', f));
    };
  };
  cb('writeFile', writeFileSync);
  cb('appendFile', appendFileSync);
  syncBuiltinESMExports();
}
