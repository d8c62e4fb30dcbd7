/**
 * The built CLI loads only what a command uses: `lexcase run case --offline`, `evidence --offline`
 * and `mcp` without a model start without LangChain (langchain, @langchain/*, langsmith, openai:
 * ~1 s of CPU per process), `index build` of a JSONL file without the CSV and Parquet readers,
 * `search` without vega. Each child runs with an `--import` hook (written here) that records every
 * module URL the loader loads; the commands' outputs are checked too.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, isolatedEnv, lexcase } from '../support/spawn-cli.js';
import { sharedUserIndex } from './cli-fixtures.js';

let dir: string;
let idx: string;
let passages: string;
let hook: string;

// The recorder: a module.register() load hook (it runs in the loader's thread) appends each URL to $LOADED_MODULES.
const HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.LOADED_MODULES, url + '\\n');
  return next(url, context);
}
`;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-cli-modules-'));
  // the user index the other CLI files read (built once per slow-tier run); the build test builds its own from part of its passages
  const user = await sharedUserIndex(dir, { extra: 200 });
  idx = user.idx;
  passages = join(dir, 'passages.jsonl');
  const rows = readFileSync(user.files.passages, 'utf8').split('\n');
  writeFileSync(passages, `${rows.slice(0, 100).join('\n')}\n`);
  writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
  hook = join(dir, 'record.mjs');
  writeFileSync(hook, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `lexcase …args` with the recorder; the packages (node_modules names) and lexcase files it loaded. */
async function loaded(name: string, args: string[]) {
  const list = join(dir, `${name}.loaded`);
  const env = isolatedEnv({ LOADED_MODULES: list, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(hook).href}`.trim() });
  const r = await lexcase(args, { cwd: dir, env });
  expect(r.code, r.stderr).toBe(0);
  const urls = readFileSync(list, 'utf8').trim().split('\n');
  const packages = new Set(urls.flatMap((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1] ?? []));
  return { r, urls, packages };
}

const LANGCHAIN = /^(langchain|@langchain\/.*|langsmith|openai)$/;

describe('the built CLI imports only what the command uses', () => {
  it('index build of a JSONL file: neither the CSV nor the Parquet reader', async () => {
    const out = join(dir, 'idx-small');
    const { urls, packages } = await loaded('index', ['-q', 'index', 'build', passages, '--out', out]);
    expect(existsSync(join(out, 'manifest.json'))).toBe(true);
    expect(urls.some((u) => u.endsWith('/corpora/jsonl.js'))).toBe(true);
    expect([...packages].filter((p) => /^(csv-parse|hyparquet|hyparquet-compressors)$/.test(p))).toEqual([]);
  });

  it('run case --offline: a full run dir (report and reliability.svg) without LangChain', async () => {
    const runDir = join(dir, 'runs/offline');
    const { r, packages } = await loaded('run', ['run', 'case', '--offline', '--index', idx, '--limit', '1', '--run-dir', runDir]);
    expect(r.stdout).toMatch(/offline heuristic, no LLM/);
    expect(readFileSync(join(runDir, 'results.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
    expect(readFileSync(join(runDir, 'reliability.svg'), 'utf8')).toMatch(/^<svg/);
    // the recorder sees the packages the run does use: vega for the svg, zod for the records
    expect(packages.has('vega') && packages.has('vega-lite') && packages.has('zod')).toBe(true);
    expect([...packages].filter((p) => LANGCHAIN.test(p))).toEqual([]);
  });

  it('evidence --offline: the offline advocate without LangChain', async () => {
    const { r, packages } = await loaded('evidence', ['evidence', 'Possession must be open and notorious', '--index', idx, '--offline', '-k', '3']);
    expect(r.stdout).toMatch(/^Evidence for: Possession must be open and notorious\n\(offline heuristic, no LLM\)/);
    expect(r.stdout).toMatch(/^ 1\. \S+ {2}score/m);
    expect([...packages].filter((p) => LANGCHAIN.test(p))).toEqual([]);
  });

  it('mcp without a model: the stdio server starts (and ends with its input) without LangChain', async () => {
    const { r, packages } = await loaded('mcp', ['mcp', '--index', idx]);
    expect(r.stderr).toMatch(/lexcase MCP server on stdio: idx; find_evidence offline only/);
    expect([...packages].filter((p) => LANGCHAIN.test(p))).toEqual([]);
    expect(packages.has('@modelcontextprotocol/sdk')).toBe(true);
  });

  it('search: neither LangChain nor vega', async () => {
    const { r, packages } = await loaded('search', ['search', 'adverse possession of land', '--index', idx, '-k', '3']);
    expect(r.stdout).toMatch(/^3 hits · bm25/);
    expect([...packages].filter((p) => LANGCHAIN.test(p) || p.startsWith('vega'))).toEqual([]);
  });
});
