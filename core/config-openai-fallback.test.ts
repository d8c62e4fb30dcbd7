/**
 * OPENAI_BASE_URL / OPENAI_API_KEY are other tools' variables, read as fallbacks: they fill baseUrl /
 * apiKey where the config file and the LEXCASE_* variables leave them unset, and never replace the
 * file's. Before 2026-12-04 they did: a run the file pointed at server A went to OPENAI_BASE_URL's
 * server, and the user's OpenAI key was sent to server A in place of the key the file gave it.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-openai-fallback-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const OPENAI = { OPENAI_BASE_URL: 'http://openai-gw.example/v1', OPENAI_API_KEY: 'sk-proj-ambient-0123456789' };

describe('OPENAI_* variables are fallbacks', () => {
  it("never replace the config file's baseUrl and apiKey", async () => {
    await writeFile(join(dir, 'lexcase.config.json'), JSON.stringify({ llm: { baseUrl: 'http://server-a:8000/v1', model: 'm', apiKey: 'file-key-for-a' } }));
    const c = await loadConfig({ env: OPENAI, cwd: dir });
    expect(c.llm).toMatchObject({ baseUrl: 'http://server-a:8000/v1', apiKey: 'file-key-for-a' });
  });

  it('fill what the file leaves unset, key by key', async () => {
    await writeFile(join(dir, 'lexcase.config.json'), JSON.stringify({ llm: { baseUrl: 'http://server-a:8000/v1', model: 'm' } }));
    const c = await loadConfig({ env: OPENAI, cwd: dir });
    expect(c.llm).toMatchObject({ baseUrl: 'http://server-a:8000/v1', apiKey: OPENAI.OPENAI_API_KEY });
    await mkdir(join(dir, 'no-file'));
    const none = await loadConfig({ env: { ...OPENAI, LEXCASE_LLM_MODEL: 'm' }, cwd: join(dir, 'no-file') });
    expect(none.llm).toMatchObject({ baseUrl: OPENAI.OPENAI_BASE_URL, apiKey: OPENAI.OPENAI_API_KEY });
  });

  it('LEXCASE_* variables still override the file, and win over the OPENAI_* ones', async () => {
    await writeFile(join(dir, 'lexcase.config.json'), JSON.stringify({ llm: { baseUrl: 'http://server-a:8000/v1', model: 'm', apiKey: 'file-key-for-a' } }));
    const c = await loadConfig({ env: { ...OPENAI, LEXCASE_LLM_BASE_URL: 'http://server-b:8000/v1', LEXCASE_LLM_API_KEY: 'lexcase-key' }, cwd: dir });
    expect(c.llm).toMatchObject({ baseUrl: 'http://server-b:8000/v1', apiKey: 'lexcase-key' });
  });
});
