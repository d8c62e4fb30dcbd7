import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultCacheDir, loadConfig, publicLlmConfig } from './config.js';
import { redact } from './log.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const write = async (name: string, json: unknown) => {
  const p = join(dir, name);
  await writeFile(p, typeof json === 'string' ? json : JSON.stringify(json));
  return p;
};

describe('loadConfig', () => {
  it('uses defaults with no file and no env: nothing configured, temperature 0, default cache dir', async () => {
    const c = await loadConfig({ env: {}, cwd: dir });
    expect(c.file).toBeUndefined();
    expect(c.llm.baseUrl).toBeUndefined();
    expect(c.llm.model).toBeUndefined();
    expect(c.llm).toMatchObject({ temperature: 0, timeoutMs: 120_000, maxRetries: 4, concurrency: 4 });
    expect(c.llm.cacheDir).toBe(defaultCacheDir({}));
  });

  it('reads ./lexcase.config.json from cwd and lets env override it', async () => {
    await write('lexcase.config.json', { llm: { baseUrl: 'http://localhost:8000/v1', model: 'llama', temperature: 0.5, cacheDir: 'cache' } });
    const c = await loadConfig({ env: { LEXCASE_LLM_MODEL: 'qwen', LEXCASE_LLM_CONCURRENCY: '8' }, cwd: dir });
    expect(c.file).toBe(join(dir, 'lexcase.config.json'));
    expect(c.llm).toMatchObject({ baseUrl: 'http://localhost:8000/v1', model: 'qwen', temperature: 0.5, concurrency: 8 });
    expect(c.llm.cacheDir).toBe(join(dir, 'cache'));
  });

  it('falls back to OPENAI_API_KEY / OPENAI_BASE_URL, LEXCASE_* first', async () => {
    const c = await loadConfig({
      env: { OPENAI_API_KEY: 'sk-openai-fallback-1234', OPENAI_BASE_URL: 'https://api.openai.com/v1', LEXCASE_LLM_API_KEY: 'sk-lexcase-key-5678' },
      cwd: dir,
    });
    expect(c.llm.baseUrl).toBe('https://api.openai.com/v1');
    expect(c.llm.apiKey).toBe('sk-lexcase-key-5678');
    // The key is registered as a secret once loaded.
    expect(redact('key=sk-lexcase-key-5678')).not.toContain('sk-lexcase-key-5678');
    expect(publicLlmConfig(c.llm).apiKey).toBe('***');
  });

  it("a file's llm section counts only the keys it sets as explicit: the provider preset and the papers' sampling fill the others", async () => {
    await write('lexcase.config.json', { llm: { provider: 'ollama', model: 'm' } });
    const c = await loadConfig({ env: {}, cwd: dir });
    expect(c.explicit).toEqual(['provider', 'model']);
    expect(c.llm).toMatchObject({ provider: 'ollama', model: 'm', baseUrl: 'http://localhost:11434/v1', timeoutMs: 600_000, temperature: 0 });
  });

  it('turns the cache off with LEXCASE_CACHE_DIR=off', async () => {
    const c = await loadConfig({ env: { LEXCASE_CACHE_DIR: 'off' }, cwd: dir });
    expect(c.llm.cacheDir).toBe(false);
  });

  it.each(['off', 'OFF', 'none', 'false'])(
    'turns the cache off with "cacheDir": "%s" in the config file, as LEXCASE_CACHE_DIR does (before: a cache folder of that name, served from on the next run)',
    async (off) => {
      await writeFile(join(dir, 'lexcase.config.json'), JSON.stringify({ llm: { cacheDir: off } }));
      const c = await loadConfig({ env: {}, cwd: dir });
      expect(c.llm.cacheDir).toBe(false);
      // a folder with another name is still a folder, relative to the file's
      await writeFile(join(dir, 'lexcase.config.json'), JSON.stringify({ llm: { cacheDir: 'offline-cache' } }));
      expect((await loadConfig({ env: {}, cwd: dir })).llm.cacheDir).toBe(join(dir, 'offline-cache'));
    },
  );

  it('rejects a bad field in the file, naming the file and the field', async () => {
    const f = await write('bad.json', { llm: { baseUrl: 'http://x/v1', temperature: 'hot' } });
    await expect(loadConfig({ file: f, env: {}, cwd: dir })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(/bad\.json: config field "llm\.temperature"/),
    });
  });

  it('rejects an unknown key in the llm section (typos do not pass silently)', async () => {
    const f = await write('typo.json', { llm: { modle: 'x' } });
    await expect(loadConfig({ file: f, env: {}, cwd: dir })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(/"llm\.modle".*unknown key/),
    });
  });

  it('rejects a file that is not JSON and a --config file that does not exist', async () => {
    const f = await write('broken.json', '{ "llm": ');
    await expect(loadConfig({ file: f, env: {}, cwd: dir })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(/not valid JSON/),
    });
    await expect(loadConfig({ file: 'nope.json', env: {}, cwd: dir })).rejects.toMatchObject({ message: expect.stringMatching(/config file not found/) });
  });

  it('refuses a --config file that is a FIFO at once, naming it (issue 37 item 15; before: the read waited forever)', async () => {
    const f = join(dir, 'fifo.json');
    execFileSync('mkfifo', [f]);
    await expect(loadConfig({ file: f, env: {}, cwd: dir })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: `${f}: config field "(file)": not a regular file (a FIFO, socket or device): not read`,
    });
  });

  it('rejects a non-numeric env value naming the variable', async () => {
    await expect(loadConfig({ env: { LEXCASE_LLM_TIMEOUT_MS: '10s' }, cwd: dir })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(/LEXCASE_LLM_TIMEOUT_MS.*integer/),
    });
    await expect(loadConfig({ env: { LEXCASE_LLM_TEMPERATURE: '5' }, cwd: dir })).rejects.toMatchObject({
      message: expect.stringMatching(/LEXCASE_LLM_TEMPERATURE/),
    });
  });

  it('refuses a top-level key other than llm (no area reads one: a misspelt "LLM" section was dropped, and the run took the defaults)', async () => {
    const f = await write('lexcase.config.json', { LLM: { temperature: 0.9 } });
    await expect(loadConfig({ env: {}, cwd: dir })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: `${f}: config field "LLM": unknown key(s) "LLM" — did you mean "llm"? (known: $schema, llm)`,
    });
    await write('lexcase.config.json', { llm: {}, temperature: 0.9 });
    await expect(loadConfig({ env: {}, cwd: dir })).rejects.toMatchObject({ message: expect.stringMatching(/config field "temperature": unknown key/) });
    expect((await loadConfig({ env: {}, cwd: dir, file: await write('ok.json', { $schema: 'x', llm: { temperature: 0.9 } }) })).llm.temperature).toBe(0.9);
  });

  it('names the closest key for a typo in the llm section', async () => {
    const f = await write('typo.json', { llm: { temprature: 0.9 } });
    await expect(loadConfig({ file: f, env: {}, cwd: dir })).rejects.toMatchObject({
      message: expect.stringMatching(/"llm\.temprature": unknown key\(s\) "temprature" — did you mean "temperature"\?/),
    });
  });

  it('refuses a LEXCASE_LLM_* variable lexcase does not read, naming the closest (a typo left the default temperature in force)', async () => {
    await expect(loadConfig({ env: { LEXCASE_LLM_TEMPRATURE: '0.9' }, cwd: dir })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(/config field "LEXCASE_LLM_TEMPRATURE": lexcase reads no such variable — did you mean LEXCASE_LLM_TEMPERATURE\?/),
    });
    await expect(loadConfig({ env: { LEXCASE_LLM_RETRY_MAX_MS: '5000' }, cwd: dir })).rejects.toMatchObject({
      message: expect.stringMatching(/LEXCASE_LLM_RETRY_MAX_MS/),
    });
    // the LLM_ part left out, or the name in lower case: refused naming the variable meant (before: ignored, exit 0)
    for (const [given, meant] of [
      ['LEXCASE_TEMPERATURE', 'LEXCASE_LLM_TEMPERATURE'],
      ['LEXCASE_MODEL', 'LEXCASE_LLM_MODEL'],
      ['LEXCASE_SEED', 'LEXCASE_LLM_SEED'],
      ['lexcase_llm_temperature', 'LEXCASE_LLM_TEMPERATURE'],
      ['lexcase_temperature', 'LEXCASE_LLM_TEMPERATURE'],
    ])
      await expect(loadConfig({ env: { [given]: '0.9' }, cwd: dir }), given).rejects.toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringContaining(`config field "${given}": lexcase reads no such variable — did you mean ${meant}?`),
      });
    // lexcase's other variables, and names of no setting of ours, pass
    for (const other of ['LEXCASE_CACHE_DIR', 'LEXCASE_EMBED_MODEL', 'LEXCASE_OFFLINE', 'LEXCASE_SOMETHING_ELSE', 'lexcase_cache_dir'])
      expect((await loadConfig({ env: { [other]: 'x' }, cwd: dir })).llm.temperature, other).toBe(0);
    // the preflight switch is read elsewhere and passes
    expect((await loadConfig({ env: { LEXCASE_LLM_PREFLIGHT: '0' }, cwd: dir })).llm.temperature).toBe(0);
  });

  it('reads env numbers in decimal only: a blank value, hex or binary is refused, not run as 0 or 16', async () => {
    for (const [name, raw] of [
      ['LEXCASE_LLM_TEMPERATURE', ' '],
      ['LEXCASE_LLM_SEED', '  '],
      ['LEXCASE_LLM_CONCURRENCY', '0x10'],
      ['LEXCASE_LLM_TOP_P', '0b1'],
      ['LEXCASE_LLM_TIMEOUT_MS', '1e5'],
    ])
      await expect(loadConfig({ env: { [name]: raw }, cwd: dir }), `${name}=${raw}`).rejects.toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringContaining(`config field "${name}": expected`),
      });
    const c = await loadConfig({ env: { LEXCASE_LLM_TEMPERATURE: ' 0.7 ', LEXCASE_LLM_TOP_P: '.9', LEXCASE_LLM_SEED: '+7' }, cwd: dir });
    expect(c.llm).toMatchObject({ temperature: 0.7, topP: 0.9, seed: 7 });
  });
});
