/**
 * A config file's relative paths (`llm.cacheDir`, `llm.modelFile`) are the file's: resolved against
 * its folder, so `--config ~/proj/lexcase.config.json` names the same cache and model file from any
 * working directory. Before, they were resolved against the working directory: run from another
 * folder, the same file wrote a second cache there (and looked for the model file there), without a
 * word. A variable's path is still the working directory's; where the older reading names another
 * path that exists, one warning says which is used now.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from './config.js';
import { log } from './log.js';

let dir: string;
let proj: string;
let elsewhere: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-config-paths-'));
  proj = join(dir, 'proj');
  elsewhere = join(dir, 'elsewhere');
  await mkdir(proj);
  await mkdir(elsewhere);
  await writeFile(
    join(proj, 'lexcase.config.json'),
    JSON.stringify({ llm: { provider: 'local', cacheDir: 'cache', modelFile: 'models/tiny.gguf', temperature: 0 } }),
  );
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

describe("a config file's relative paths", () => {
  it("resolve against the file's folder from any working directory", async () => {
    const warn = vi.spyOn(log, 'warn');
    const c = await loadConfig({ file: join(proj, 'lexcase.config.json'), env: {}, cwd: elsewhere });
    expect(c.llm.cacheDir).toBe(join(proj, 'cache'));
    expect(c.llm.modelFile).toBe(join(proj, 'models', 'tiny.gguf'));
    // the same file found in its own folder (./lexcase.config.json): the same paths
    const here = await loadConfig({ env: {}, cwd: proj });
    expect([here.llm.cacheDir, here.llm.modelFile]).toEqual([c.llm.cacheDir, c.llm.modelFile]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('a variable’s path stays relative to the working directory', async () => {
    const c = await loadConfig({
      file: join(proj, 'lexcase.config.json'),
      env: { LEXCASE_CACHE_DIR: 'mycache', LEXCASE_LLM_MODEL_FILE: 'm.gguf' },
      cwd: elsewhere,
    });
    expect(c.llm.cacheDir).toBe(join(elsewhere, 'mycache'));
    expect(c.llm.modelFile).toBe(join(elsewhere, 'm.gguf'));
  });

  it('where the working directory’s reading (the old one) names another existing path, one warning names both', async () => {
    await mkdir(join(elsewhere, 'cache')); // the cache an earlier run from this directory wrote
    const warn = vi.spyOn(log, 'warn');
    const file = join(proj, 'lexcase.config.json');
    const c = await loadConfig({ file, env: {}, cwd: elsewhere });
    expect(c.llm.cacheDir).toBe(join(proj, 'cache'));
    expect(warn.mock.calls.map((a) => String(a[0]))).toEqual([
      `${file}: llm.cacheDir "cache" is read relative to the config file's folder: ${join(proj, 'cache')} — not ${join(elsewhere, 'cache')} (relative to the working directory, as lexcase read it until 2026-12-01, and that path exists); write an absolute path to use that one`,
    ]);
    await loadConfig({ file, env: {}, cwd: elsewhere }); // once per path
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
