/**
 * The README's library example, run exactly as printed: the ```ts block after
 * `<!-- library-example -->` is written to a fresh directory as example.mts, `lexcase` resolves to
 * this package (node_modules/lexcase → the repository root, i.e. its built dist/ — `npm ci` builds
 * it via `prepare`), the file is type-checked with tsc in strict mode, run with node (tsx), and its
 * output must equal the block after `<!-- library-example-output -->`.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

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

describe('README library example', () => {
  const code = blockAfter('library-example', 'ts');
  const output = blockAfter('library-example-output', '');

  it('imports lexcase and shows build, search with text, and the LangChain retriever', () => {
    expect(code).toMatch(/from 'lexcase'/);
    expect(code).toMatch(/buildIndex\(passages, \{ out: /);
    expect(code).toMatch(/withText: true/);
    expect(code).toMatch(/new LexcaseRetriever\(/);
  });

  it('type-checks (strict) and runs as printed against the built package, printing the output shown', async () => {
    const entry = join(root, 'dist/src/index.js');
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` (npm ci does it via prepare)`);
    mkdirSync(join(work, 'node_modules'));
    symlinkSync(root, join(work, 'node_modules/lexcase'), 'dir');
    writeFileSync(join(work, 'example.mts'), code);
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const flags = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck'];
    await run(process.execPath, [tsc, ...flags, '--types', 'node', '--typeRoots', join(root, 'node_modules/@types'), 'example.mts'], { cwd: work }).catch(
      (e: { stdout: string }) => {
        throw new Error(`README example does not type-check:\n${e.stdout}`);
      },
    );
    const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
    const { stdout } = await run(process.execPath, [tsx, 'example.mts'], { cwd: work, env: { ...process.env, NO_COLOR: '1' } });
    expect(stdout).toBe(output);
    expect(existsSync(join(work, 'my-index/manifest.json'))).toBe(true);
  });
});
