/**
 * A library caller that gives a local model (`provider: 'local'`, a model file) a server's
 * `baseUrl` or `model` too: the file runs and is named by its file and hash, and one `[warn]` line
 * says that the endpoint and model name given are not used. Before, createChatModel replaced both
 * without a word (the CLI said it; the library did not). Creating the model hashes the file and
 * loads nothing, so this runs where node-llama-cpp has no binary too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { writeTinyGguf } from '../../../tests/support/tiny-gguf.js';
import { llmConfigSchema } from '../../config.js';
import { createChatModel } from '../factory.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-local-unused-'));
const file = writeTinyGguf(join(dir, 'tiny.gguf'));
const xdg = process.env.XDG_CACHE_HOME;
process.env.XDG_CACHE_HOME = join(dir, 'cache');
afterAll(() => {
  if (xdg === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = xdg;
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => vi.restoreAllMocks());

function captureStderr(): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return lines;
}

describe('createChatModel with a model file and a server', () => {
  it('names the endpoint and model name it does not use, once; the model is the file', () => {
    const stderr = captureStderr();
    const cfg = llmConfigSchema.parse({ provider: 'local', modelFile: file, model: 'gpt-4o', baseUrl: 'http://user:secret@127.0.0.1:9/v1' });
    const a = createChatModel(cfg) as unknown as { model: string };
    createChatModel(cfg);
    expect(a.model).toMatch(/^tiny\.gguf@sha256:[0-9a-f]{16}$/);
    const said = stderr.filter((l) => l.includes('not used:'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(
      `not used: baseUrl http://***:***@127.0.0.1:9/v1, model "gpt-4o" — provider "local" runs the model in this process from ${file}, named ${a.model}`,
    );
    expect(said[0]).not.toContain('secret');
  });

  it('says nothing when only the file is given', () => {
    const stderr = captureStderr();
    createChatModel(llmConfigSchema.parse({ provider: 'local', modelFile: file }));
    expect(stderr.filter((l) => l.includes('not used:'))).toEqual([]);
  });
});
