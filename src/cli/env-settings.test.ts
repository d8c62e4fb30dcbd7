/**
 * LEXCASE_* settings outside the LLM section are read like the LLM ones (core/env-number.ts): a
 * blank value, hex or a word is CONFIG_INVALID naming the variable and the value. Before, `Number()`
 * read LEXCASE_VERIFY_MAX_MB=" " as 0 (checksum verification on open silently off), `0x10` as 16,
 * and a bad LEXCASE_LOG_LEVEL / LEXCASE_PROGRESS_INTERVAL fell back to the default without a word.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getLogLevel, log, logLevelFromEnv, setLogLevel } from '../../core/log.js';
import { createProgress } from '../../core/progress.js';
import { defaultMaxLineBytes } from '../../corpora/read-lines.js';
import { createOpenAIEmbedder } from '../../indexer/embed/openai.js';
import { verifyOnOpenMaxBytes } from '../../indexer/integrity.js';
import { cacheBudgetBytes } from '../../retrieval/sparse/list-cache.js';
import { programWith, runCli } from '../../tests/support/run-cli.js';
import { action } from './action.js';

const refused = (name: string, raw: string) => ({
  code: 'CONFIG_INVALID',
  message: expect.stringMatching(new RegExp(`config field "${name}": expected .*got ${JSON.stringify(JSON.stringify(raw)).slice(1, -1)}`)),
});

/** Run `read` with process.env[name] = raw, then put the variable back. */
function withEnv<T>(name: string, raw: string | undefined, read: () => T): T {
  const before = process.env[name];
  if (raw === undefined) delete process.env[name];
  else process.env[name] = raw;
  try {
    return read();
  } finally {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  }
}

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};

describe('LEXCASE_* numbers are decimal only', () => {
  it('LEXCASE_VERIFY_MAX_MB: a blank value is refused, not read as 0 (verification off); hex is refused; unset or "" is 1024 MiB', () => {
    for (const raw of [' ', '0x10', '16MB', '-1'])
      expect(
        thrown(() => withEnv('LEXCASE_VERIFY_MAX_MB', raw, verifyOnOpenMaxBytes)),
        raw,
      ).toMatchObject(refused('LEXCASE_VERIFY_MAX_MB', raw));
    expect(withEnv('LEXCASE_VERIFY_MAX_MB', '', verifyOnOpenMaxBytes)).toBe(1024 * 2 ** 20);
    expect(withEnv('LEXCASE_VERIFY_MAX_MB', undefined, verifyOnOpenMaxBytes)).toBe(1024 * 2 ** 20);
    expect(withEnv('LEXCASE_VERIFY_MAX_MB', ' 16 ', verifyOnOpenMaxBytes)).toBe(16 * 2 ** 20);
    expect(withEnv('LEXCASE_VERIFY_MAX_MB', '0', verifyOnOpenMaxBytes)).toBe(0);
  });

  it('LEXCASE_CACHE_MIB and LEXCASE_MAX_LINE_MB: a blank value or hex is refused naming the variable', () => {
    for (const raw of [' ', '0x10', '0b1'])
      expect(
        thrown(() => cacheBudgetBytes(undefined, { LEXCASE_CACHE_MIB: raw })),
        raw,
      ).toMatchObject(refused('LEXCASE_CACHE_MIB', raw));
    expect(cacheBudgetBytes(undefined, { LEXCASE_CACHE_MIB: '16' })).toBe(16 * 2 ** 20);
    for (const raw of [' ', '0x10', '0'])
      expect(
        thrown(() => withEnv('LEXCASE_MAX_LINE_MB', raw, defaultMaxLineBytes)),
        raw,
      ).toMatchObject(refused('LEXCASE_MAX_LINE_MB', raw));
    expect(withEnv('LEXCASE_MAX_LINE_MB', '2', defaultMaxLineBytes)).toBe(2 * 2 ** 20);
  });

  it('LEXCASE_EMBED_TIMEOUT_MS and LEXCASE_EMBED_MAX_REPLY_BYTES: hex or a blank value is refused before any request', async () => {
    for (const [name, raw] of [
      ['LEXCASE_EMBED_TIMEOUT_MS', '0x10'],
      ['LEXCASE_EMBED_TIMEOUT_MS', ' '],
      ['LEXCASE_EMBED_MAX_REPLY_BYTES', '1e6'],
      ['LEXCASE_EMBED_MAX_REPLY_BYTES', '0x100000'],
    ]) {
      const before = process.env[name];
      process.env[name] = raw;
      try {
        // port 9 (discard) is never asked: the setting is read before the dimension probe
        await expect(createOpenAIEmbedder({ provider: 'openai', model: 'm', baseURL: 'http://127.0.0.1:9/v1' }), `${name}=${raw}`).rejects.toMatchObject(
          refused(name, raw),
        );
      } finally {
        if (before === undefined) delete process.env[name];
        else process.env[name] = before;
      }
    }
  });
});

describe('LEXCASE_LOG_LEVEL / LEXCASE_PROGRESS / LEXCASE_PROGRESS_INTERVAL', () => {
  const level = getLogLevel();
  afterEach(() => setLogLevel(level));

  it('the log level matches in any case ("DEBUG" is debug); an unknown one is refused naming the levels', () => {
    expect(logLevelFromEnv({ LEXCASE_LOG_LEVEL: 'DEBUG' })).toBe('debug');
    expect(logLevelFromEnv({ LEXCASE_LOG_LEVEL: ' Warn ' })).toBe('warn');
    expect(logLevelFromEnv({ LEXCASE_LOG_LEVEL: '' })).toBeUndefined();
    expect(thrown(() => logLevelFromEnv({ LEXCASE_LOG_LEVEL: 'verbose' }))).toMatchObject({
      code: 'CONFIG_INVALID',
      message: 'config field "LEXCASE_LOG_LEVEL": expected one of debug, info, warn, error, silent (any case), got "verbose"',
    });
  });

  for (const [name, raw] of [
    ['LEXCASE_LOG_LEVEL', 'verbose'],
    ['LEXCASE_PROGRESS_INTERVAL', 'abc'],
    ['LEXCASE_PROGRESS_INTERVAL', ' '],
    ['LEXCASE_PROGRESS', 'fancy'],
  ])
    it(`a command run with ${name}=${JSON.stringify(raw)} exits 1 naming it before it starts, not at the default`, async () => {
      let ran = false;
      const program = programWith((p) =>
        p.command('probe').action(
          action(() => {
            ran = true;
            log.info('probe ran');
            createProgress('probe').stop();
          }),
        ),
      );
      const r = await withEnv(name, raw, () => runCli(['probe'], program));
      expect(r.code).toBe(1);
      expect(ran).toBe(false);
      expect(r.stderr).toContain(`config field "${name}": expected`);
      expect(r.stderr).toContain(`got ${JSON.stringify(raw)}`);
    });
});
