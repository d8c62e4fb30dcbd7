/**
 * The package as a user installs it: `npm pack` of the built checkout (--ignore-scripts: the dist/
 * that is there), unpacked into an empty project's node_modules/lexcase, its dependencies linked
 * from this checkout's node_modules (what `npm install` would fetch; no network). Tests then run
 * the installed bin (`runBuiltCli(args, { cli: pkg.cli })`) or node scripts in `pkg.proj` that
 * import 'lexcase'.
 *
 *   const pkg = await installPackedPackage(workDir);
 *   const r = await runBuiltCli(['--json', 'search', 'hearsay', '--index', idx], { cli: pkg.cli, cwd: pkg.proj });
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../core/version.js';

const run = promisify(execFile);

export interface InstalledPackage {
  /** The user's project dir (package.json "type": "module"). */
  proj: string;
  /** node_modules/lexcase inside it: the unpacked tarball. */
  dir: string;
  /** The installed bin's entry (node_modules/lexcase/dist/src/cli/main.js). */
  cli: string;
  /** Paths in the tarball, relative to the package root. */
  files: string[];
}

export async function installPackedPackage(work: string): Promise<InstalledPackage> {
  if (!existsSync(join(PACKAGE_ROOT, 'dist/src/index.js'))) throw new Error('dist/ is missing: run `npm run build` (npm ci does it via prepare)');
  mkdirSync(work, { recursive: true });
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: PACKAGE_ROOT, maxBuffer: 1 << 28 });
  const packed = (JSON.parse(stdout) as { filename: string; files: { path: string }[] }[])[0];
  const proj = join(work, 'proj');
  const dir = join(proj, 'node_modules/lexcase');
  mkdirSync(dir, { recursive: true });
  await run('tar', ['-xzf', join(work, packed.filename), '-C', dir, '--strip-components=1']);
  for (const name of readdirSync(join(PACKAGE_ROOT, 'node_modules'))) {
    if (name.startsWith('.') || name === 'lexcase') continue;
    symlinkSync(join(PACKAGE_ROOT, 'node_modules', name), join(proj, 'node_modules', name), 'dir');
  }
  writeFileSync(join(proj, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }));
  return { proj, dir, cli: join(dir, 'dist/src/cli/main.js'), files: packed.files.map((f) => f.path) };
}
