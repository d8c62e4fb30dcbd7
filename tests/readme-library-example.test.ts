/**
 * The README's library example, run exactly as printed: the ```ts block after
 * `<!-- library-example -->` is written as example.mts into an empty project where `lexcase` is the
 * packed tarball installed (tests/support/installed-package.ts: `npm pack` of the built dist/, packed
 * once per test run), the file is type-checked with tsc in strict mode (nodenext: the package's
 * `exports` and declarations), run with node (tsx), and its output must equal the block after
 * `<!-- library-example-output -->`. (tests/package-exports.test.ts ran the same example against
 * the tarball too, and this file against a symlink to the checkout: one run now, the tarball's.)
 * The other ```ts blocks of README.md and docs/**\/*.md are type-checked the same way, each as a program of its
 * own (FRAGMENTS: the blocks that show a call's shape with the caller's own values, not a program): docs/library.md's
 * "From Documents" block called LexcaseRetriever without importing it, so a copy did not compile.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { docFiles } from './docs/docs-check.js';
import { installPackedPackage } from './support/installed-package.js';

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The fenced block right after `<!-- marker -->` (its body, without the fences). */
function blockAfter(marker: string, lang: string): string {
  const m = new RegExp(`<!-- ${marker} -->\\s*\\n\`\`\`${lang}\\n([\\s\\S]*?)\\n\`\`\`\\n`).exec(readme);
  if (!m) throw new Error(`README.md has no \`\`\`${lang} block after <!-- ${marker} -->`);
  return m[1] + '\n';
}

const work = mkdtempSync(join(tmpdir(), 'lexcase-readme-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
/** The tarball installed into `work` once for this file's tests (a second install into the same dir fails). */
let installed: ReturnType<typeof installPackedPackage> | undefined;
const installOnce = () => (installed ??= installPackedPackage(work));

describe('README library example', () => {
  const code = blockAfter('library-example', 'ts');
  const output = blockAfter('library-example-output', '');

  it('imports lexcase and shows build, search with text, and the LangChain retriever', () => {
    expect(code).toMatch(/from 'lexcase'/);
    expect(code).toMatch(/buildIndex\(passages, \{ out: /);
    expect(code).toMatch(/withText: true/);
    expect(code).toMatch(/new LexcaseRetriever\(/);
  });

  it('type-checks (strict) and runs as printed against the installed tarball, printing the output shown', async () => {
    const { proj } = await installOnce();
    writeFileSync(join(proj, 'example.mts'), code);
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const flags = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck'];
    await run(process.execPath, [tsc, ...flags, '--types', 'node', '--typeRoots', join(root, 'node_modules/@types'), 'example.mts'], { cwd: proj }).catch(
      (e: { stdout: string }) => {
        throw new Error(`README example does not type-check against the tarball:\n${e.stdout}`);
      },
    );
    const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
    const { stdout } = await run(process.execPath, [tsx, 'example.mts'], { cwd: proj, env: { ...process.env, NO_COLOR: '1' } });
    expect(stdout).toBe(output);
    expect(existsSync(join(proj, 'my-index/manifest.json'))).toBe(true);
  }, 180_000);
});

/** Blocks that show a call's shape with values of the caller's own (not a program), by file. */
const FRAGMENTS: Record<string, string> = {
  'docs/runner.md': "runExperiment's options: runDir, system, items, tools, llm … are the caller's",
  'docs/emar.md': 'embedder, questionToCase, chatModel, emarCase are the caller’s',
};

describe('the docs’ other library examples', () => {
  it('type-check (strict) against the installed tarball, each block a program of its own', async () => {
    const { proj } = await installOnce();
    const readmeExample = blockAfter('library-example', 'ts');
    const files: string[] = [];
    for (const file of docFiles(root)) {
      if (file in FRAGMENTS) continue;
      const text = readFileSync(join(root, file), 'utf8');
      for (const m of text.matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)) {
        if (file === 'README.md' && m[1] === readmeExample) continue; // the README's example: run above
        const line = text.slice(0, m.index).split('\n').length;
        const name = `doc-${file.replace(/[^\w]+/g, '-')}-${line}.mts`;
        writeFileSync(join(proj, name), m[1]);
        files.push(name);
      }
    }
    expect(files.length).toBeGreaterThan(5);
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const flags = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck'];
    const out = await run(process.execPath, [tsc, ...flags, '--types', 'node', '--typeRoots', join(root, 'node_modules/@types'), ...files], { cwd: proj }).then(
      () => '',
      (e: { stdout: string }) => e.stdout,
    );
    expect(out).toBe('');
  }, 180_000);
});
