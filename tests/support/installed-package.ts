/**
 * The package as a user installs it: `npm pack` of the built checkout (--ignore-scripts: the dist/
 * that is there), unpacked into an empty project's node_modules/lexcase, its dependencies linked
 * from this checkout's node_modules (what `npm install` would fetch; no network). Tests then run
 * the installed bin (`runBuiltCli(args, { cli: pkg.cli })`) or node scripts in `pkg.proj` that
 * import 'lexcase'.
 *
 *   const pkg = await installPackedPackage(workDir);
 *   const r = await runBuiltCli(['--json', 'search', 'hearsay', '--index', idx], { cli: pkg.cli, cwd: pkg.proj });
 *
 * The tarball is packed once per test run (packedTarball): the first file that needs it packs into
 * the run's shared dir (tests/support/pack-dir-setup.ts), holding a lock dir; the others wait for it
 * and unpack the same tarball. Outside a run of the slow tier, each caller packs into its own dir.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../core/version.js';
import { sharedOnce } from './shared-once.js';

const run = promisify(execFile);

export interface InstalledPackage {
  /** The user's project dir (package.json "type": "module"; a git repository with one commit). */
  proj: string;
  /** node_modules/lexcase inside it: the unpacked tarball. */
  dir: string;
  /** The installed bin's entry (node_modules/lexcase/dist/src/cli/main.js). */
  cli: string;
  /** Paths in the tarball, relative to the package root. */
  files: string[];
}

export interface PackedTarball {
  /** The .tgz `npm pack` wrote. */
  tgz: string;
  /** Paths in it, relative to the package root. */
  files: string[];
}

/** `npm pack --ignore-scripts` of this checkout (the dist/ that is there) into `dest`. */
async function pack(dest: string): Promise<PackedTarball> {
  if (!existsSync(join(PACKAGE_ROOT, 'dist/src/index.js'))) throw new Error('dist/ is missing: run `npm run build` (npm ci does it via prepare)');
  mkdirSync(dest, { recursive: true });
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest], { cwd: PACKAGE_ROOT, maxBuffer: 1 << 28 });
  const packed = (JSON.parse(stdout) as { filename: string; files: { path: string }[] }[])[0];
  return { tgz: join(dest, packed.filename), files: packed.files.map((f) => f.path) };
}

/**
 * The package's tarball, packed once per test run: in the run's shared dir (shared-once.ts) by
 * the first caller, under a lock dir the others wait on; where no run provides that dir, into `own`.
 */
export async function packedTarball(own: string): Promise<PackedTarball> {
  return (await sharedOnce('packed', pack)) ?? pack(own);
}

export async function installPackedPackage(work: string): Promise<InstalledPackage> {
  mkdirSync(work, { recursive: true });
  const packed = await packedTarball(work);
  const proj = join(work, 'proj');
  const dir = join(proj, 'node_modules/lexcase');
  mkdirSync(dir, { recursive: true });
  await run('tar', ['-xzf', packed.tgz, '-C', dir, '--strip-components=1']);
  for (const name of readdirSync(join(PACKAGE_ROOT, 'node_modules'))) {
    if (name.startsWith('.') || name === 'lexcase') continue;
    symlinkSync(join(PACKAGE_ROOT, 'node_modules', name), join(proj, 'node_modules', name), 'dir');
  }
  writeFileSync(join(proj, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }));
  // like most users' projects, a git repository with a commit of its own (node_modules untracked):
  // what lexcase records as its own commit must not be this one (eval/provenance.ts gitSha)
  const git = (...args: string[]) => run('git', ['-c', 'user.email=user@example.org', '-c', 'user.name=user', ...args], { cwd: proj });
  await git('init', '-q');
  await git('add', 'package.json');
  await git('commit', '-q', '-m', 'the user project');
  return { proj, dir, cli: join(dir, 'dist/src/cli/main.js'), files: packed.files };
}
