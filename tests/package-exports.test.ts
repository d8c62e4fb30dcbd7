/**
 * The packed package as a user installs it: `npm pack` (of the built dist/), unpacked into an empty
 * project's node_modules/lexcase (its dependencies linked from this checkout's node_modules, so no
 * network), then every subpath of package.json `exports` is imported by node and type-checked by
 * tsc (nodenext), the root export stays small, and deep imports outside `exports` are refused. (The
 * README's library example runs against the same tarball in tests/readme-library-example.test.ts.)
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPackedPackage } from './support/installed-package.js';

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
const work = mkdtempSync(join(tmpdir(), 'lexcase-pack-'));
const proj = join(work, 'proj');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A few names each subpath must give (the area's entry points). */
const EXPECT: Record<string, string[]> = {
  lexcase: [
    'buildIndex',
    'openRetriever',
    'LexcaseRetriever',
    'openIndex',
    'DEFAULT_K',
    'SEARCH_K',
    'evaluateRun',
    'runExperiment',
    'writeReport',
    'openQueryService',
  ],
  'lexcase/core': ['LexcaseError', 'errors', 'createRng', 'loadConfig', 'createChatModel', 'DiskCache'],
  'lexcase/corpora': ['loadPassages', 'loadQuestions', 'loadPassageFile', 'loadTradeSecretModel', 'loadLegalBenchTask', 'selectSplit'],
  'lexcase/indexer': ['buildIndex', 'createAnalyzer', 'readManifest', 'verifyChecksums', 'addDenseIndex', 'indexCorpus'],
  'lexcase/retrieval': [
    'openRetriever',
    'openIndex',
    'createBm25Retriever',
    'reciprocalRankFusion',
    'createRetrievalTools',
    'LexcaseRetriever',
    'DEFAULT_K',
    'SEARCH_K',
  ],
  'lexcase/eval': [
    'runExperiment',
    'contextFrom',
    'evalRetrieval',
    'bootstrapCi',
    'evaluateRun',
    'writeReport',
    'registerTraceSchema',
    'aggregateRun',
    'docMapOf',
  ],
  'lexcase/agents': ['SYSTEMS', 'headlineFigures', 'PassageHandles'],
  'lexcase/agents/case': ['createCase', 'findEvidence', 'caseMetrics'],
  'lexcase/agents/acal': ['runAcal', 'createAcalSystem', 'dfQuad'],
  'lexcase/agents/mad': ['createMad', 'MAD_DEFAULTS'],
  'lexcase/agents/threeply': ['createThreePlySystem', 'buildScenarios'],
  'lexcase/agents/emar': ['runEmar', 'createEmarSystem'],
  'lexcase/agents/baselines': ['createBaseline', 'BASELINE_MODES'],
  'lexcase/service': ['openQueryService'],
  'lexcase/demo': ['runDemo', 'DEMO_STEPS'],
};
/** `./agents/*` is one subpath per system folder with a public.ts (agents/<system>/public.ts: its library surface). */
const systemFolders = readdirSync(join(root, 'agents')).filter((d) => existsSync(join(root, 'agents', d, 'public.ts')));
const subpaths = Object.keys(pkg.exports)
  .filter((k) => k !== './package.json')
  .flatMap((k) => (k.endsWith('/*') ? systemFolders.map((d) => `${k.slice(0, -1)}${d}`) : [k]))
  .map((k) => (k === '.' ? 'lexcase' : `lexcase/${k.slice(2)}`));

beforeAll(async () => {
  // the tarball of the built dist/, packed once per test run (tests/support/installed-package.ts)
  await installPackedPackage(work);
}, 300_000);

describe('the packed package', () => {
  it('names every subpath this test checks, and nothing else', () => {
    expect(subpaths.sort()).toEqual(Object.keys(EXPECT).sort());
  });

  it('every subpath imports in node from the installed tarball and gives its entry points; the root export is small', async () => {
    const script = `const out = {};\nfor (const p of ${JSON.stringify(subpaths)}) out[p] = Object.keys(await import(p)).sort();\nconsole.log(JSON.stringify(out));\n`;
    writeFileSync(join(proj, 'imports.mjs'), script);
    const { stdout } = await run(process.execPath, ['imports.mjs'], { cwd: proj, maxBuffer: 1 << 26 });
    const names = JSON.parse(stdout) as Record<string, string[]>;
    for (const [p, want] of Object.entries(EXPECT)) for (const n of want) expect(names[p], `${p} exports ${n}`).toContain(n);
    expect(names.lexcase.length).toBeLessThan(40);
    // The root is a selection: every name in it is also in an area's subpath.
    const areas = new Set(
      Object.entries(names)
        .filter(([p]) => p !== 'lexcase')
        .flatMap(([, ns]) => ns),
    );
    expect(names.lexcase.filter((n) => !areas.has(n))).toEqual([]);
    // Only the subpaths: a deep import of a file of the package is refused.
    await expect(run(process.execPath, ['--input-type=module', '-e', "await import('lexcase/dist/retrieval/open.js')"], { cwd: proj })).rejects.toThrow(
      /ERR_PACKAGE_PATH_NOT_EXPORTED/,
    );
  }, 120_000);

  it('every subpath type-checks (tsc, nodenext, strict) against the tarball’s declarations', async () => {
    const lines = subpaths.map((p, i) => `import * as m${i} from '${p}';\nexport const n${i}: number = Object.keys(m${i}).length;`);
    lines.push(
      "import { openRetriever, SEARCH_K } from 'lexcase/retrieval';\nexport const search = async (dir: string) => (await openRetriever(dir, 'bm25')).search('hearsay', { k: SEARCH_K });",
    );
    writeFileSync(join(proj, 'types.mts'), lines.join('\n') + '\n');
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const flags = [
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--skipLibCheck',
      '--types',
      'node',
      '--typeRoots',
      join(root, 'node_modules/@types'),
    ];
    await run(process.execPath, [tsc, ...flags, 'types.mts'], { cwd: proj }).catch((e: { stdout: string }) => {
      throw new Error(`subpath imports do not type-check:\n${e.stdout}`);
    });
  }, 120_000);
});
