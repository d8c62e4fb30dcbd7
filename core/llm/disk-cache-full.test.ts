/**
 * The LLM response cache on a full disk leaves no `*.tmp-*` files behind (issue 26, item 11): the
 * reply is still returned (a cache write failure is a warning), and the temp file the failed write
 * created is removed. Two ways: the file system calls failing with ENOSPC after creating the temp
 * file (as a full disk does), everywhere; and a real full tmpfs when this process may mount one.
 */
import { HumanMessage } from '@langchain/core/messages';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import type * as Config from '../config.js';
import type * as Log from '../log.js';
import type * as Factory from './factory.js';

const diskFull = { on: false };
let llmConfigSchema: typeof Config.llmConfigSchema;
let setLogLevel: typeof Log.setLogLevel;
let createChatModel: typeof Factory.createChatModel;
let llmStats: typeof Factory.llmStats;

// The slow tier runs its files in shared workers (isolate: false): the modules an earlier file of
// the worker imported stay loaded, bound to the real node:fs/promises. So the code under test is
// imported afresh once the mock is in place, and the mock goes again when this file ends.
beforeAll(async () => {
  vi.resetModules();
  vi.doMock('node:fs/promises', async (importOriginal) => {
    const fs = await importOriginal<typeof FsPromises>();
    return {
      ...fs,
      // While `diskFull.on`: a temp file is created, then the write fails, as on a full disk.
      writeFile: async (...args: Parameters<typeof fs.writeFile>) => {
        if (diskFull.on && String(args[0]).includes('.tmp-')) {
          await fs.writeFile(args[0], '');
          throw Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC' });
        }
        return fs.writeFile(...args);
      },
    };
  });
  ({ llmConfigSchema } = await import('../config.js'));
  ({ setLogLevel } = await import('../log.js'));
  ({ createChatModel, llmStats } = await import('./factory.js'));
});

const base = mkdtempSync(join(tmpdir(), 'lexcase-cache-full-'));
const mounted: string[] = [];
let srv: ScriptedServer | undefined;
afterEach(async () => {
  diskFull.on = false;
  await srv?.close();
  srv = undefined;
  setLogLevel('info');
});
afterAll(() => {
  for (const m of mounted) execFileSync('umount', [m]);
  rmSync(base, { recursive: true, force: true });
  vi.doUnmock('node:fs/promises');
  vi.resetModules();
});

function canMount(dir: string): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return false;
  }
  mounted.push(dir);
  return true;
}

async function askTwenty(cacheDir: string): Promise<void> {
  setLogLevel('silent');
  srv = await startScriptedServer((_r, i) => ({ content: `answer ${i} ${'x'.repeat(2000)}` }));
  const m = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'm', cacheDir, maxRetries: 0 }));
  for (let i = 0; i < 20; i++) expect((await m.invoke([new HumanMessage(`q${i}`)])).content).toMatch(/^answer /);
  expect(llmStats(m)).toMatchObject({ requests: 20 });
}

describe('the LLM cache on a full disk', () => {
  it('writes that fail with ENOSPC leave no temp files; every reply is still returned', async () => {
    const cacheDir = join(base, 'injected');
    diskFull.on = true;
    await askTwenty(cacheDir);
    expect(readdirSync(cacheDir).filter((f) => f.includes('.tmp-'))).toEqual([]);
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  const mnt = join(base, 'tmpfs');
  it.skipIf(!canMount(mnt))('a real 1 MiB tmpfs filled up: no temp files left (root only)', async () => {
    execFileSync('dd', ['if=/dev/zero', `of=${join(mnt, 'filler')}`, 'bs=1K', 'count=1020'], { stdio: 'ignore' });
    await askTwenty(join(mnt, 'cache'));
    expect(readdirSync(join(mnt, 'cache')).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});
