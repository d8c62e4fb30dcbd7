/**
 * The package's size as a user installs it, with and without its optional dependencies
 * (node-llama-cpp for `--llm-provider local`, @xenova/transformers for local embeddings):
 *
 *   npx tsx bench/package-size.ts [--tarball lexcase-x.y.z.tgz] [--json-out FILE]
 *
 * - the packed tarball (`npm pack --ignore-scripts` of this checkout, dist/ as built; or --tarball):
 *   its bytes and unpacked bytes;
 * - `npm install --offline --ignore-scripts <tarball>` into an empty project, once in full and once
 *   with `--omit=optional`: the bytes of node_modules (file sizes, `du --apparent-size -sb`, and
 *   disk blocks, `du -sk`) and the number of packages; in the full install, node-llama-cpp's own
 *   share (node_modules/node-llama-cpp, node_modules/@node-llama-cpp/*, and the packages only it
 *   needs — the difference to an install with node-llama-cpp removed from the tree by `npm uninstall`
 *   is not taken, to keep it offline and one install per mode).
 * Offline: every package comes from the npm cache (~/.npm/_cacache) that `npm ci` filled; a package
 * missing there fails the install with npm's ENOTCACHED, which the script prints. Scripts are not
 * run (`--ignore-scripts`: node-llama-cpp's postinstall would look for a binary; lexcase asks for
 * the prebuilt one only). Prints a table, then one JSON line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function sh(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status}) in ${cwd}:\n${r.stderr.slice(-4000)}`);
  return r.stdout;
}

/** [apparent bytes, disk bytes] of the paths (du). */
function du(paths: string[]): { bytes: number; diskBytes: number } {
  const there = paths.filter((p) => existsSync(p));
  if (!there.length) return { bytes: 0, diskBytes: 0 };
  const sum = (out: string, scale: number) =>
    out
      .trim()
      .split('\n')
      .reduce((s, l) => s + Number(l.split('\t')[0]) * scale, 0);
  return { bytes: sum(sh('du', ['--apparent-size', '-sb', ...there], '/'), 1), diskBytes: sum(sh('du', ['-sk', ...there], '/'), 1024) };
}

/** Packages in node_modules (a scope's members counted one by one). */
function countPackages(nm: string): number {
  if (!existsSync(nm)) return 0;
  let n = 0;
  for (const name of readdirSync(nm)) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) n += readdirSync(join(nm, name)).length;
    else n++;
  }
  return n;
}

interface InstallFigures {
  mode: 'full' | 'omit-optional';
  seconds: number;
  nodeModules: { bytes: number; diskBytes: number };
  packages: number;
  nodeLlamaCpp: { bytes: number; diskBytes: number; packages: string[] };
}

function install(tgz: string, work: string, mode: InstallFigures['mode']): InstallFigures {
  const proj = join(work, mode);
  mkdirSync(proj, { recursive: true });
  writeFileSync(join(proj, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }));
  const t0 = performance.now();
  sh(
    'npm',
    ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', ...(mode === 'omit-optional' ? ['--omit=optional'] : []), tgz],
    proj,
  );
  const seconds = (performance.now() - t0) / 1000;
  const nm = join(proj, 'node_modules');
  const scoped = existsSync(join(nm, '@node-llama-cpp')) ? readdirSync(join(nm, '@node-llama-cpp')).map((p) => `@node-llama-cpp/${p}`) : [];
  const llama = [...(existsSync(join(nm, 'node-llama-cpp')) ? ['node-llama-cpp'] : []), ...scoped];
  return { mode, seconds, nodeModules: du([nm]), packages: countPackages(nm), nodeLlamaCpp: { ...du(llama.map((p) => join(nm, p))), packages: llama } };
}

const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;

function main(): void {
  const { values } = parseArgs({ options: { tarball: { type: 'string' }, 'json-out': { type: 'string' } } });
  const work = mkdtempSync(join(tmpdir(), 'lexcase-package-size-'));
  try {
    const load = loadavg()[0];
    let tgz = values.tarball && resolve(values.tarball);
    let unpackedBytes: number | undefined;
    if (!tgz) {
      const packed = JSON.parse(sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT))[0] as {
        filename: string;
        unpackedSize: number;
      };
      tgz = join(work, packed.filename);
      unpackedBytes = packed.unpackedSize;
    }
    const installs = (['full', 'omit-optional'] as const).map((m) => install(tgz!, work, m));
    const result = {
      tarball: { file: tgz.split('/').pop(), bytes: statSync(tgz).size, ...(unpackedBytes !== undefined ? { unpackedBytes } : {}) },
      installs,
      machine: { cpus: cpus().length, loadAvg1mAtStart: Number(load.toFixed(2)), node: process.version },
    };
    const [full, omit] = installs;
    console.log(`packed tarball ${result.tarball.file}: ${mib(result.tarball.bytes)}${unpackedBytes !== undefined ? ` (${mib(unpackedBytes)} unpacked)` : ''}`);
    console.log('| install (npm install --offline --ignore-scripts) | node_modules (file bytes) | on disk | packages | node-llama-cpp + @node-llama-cpp/* |');
    console.log('|---|---|---|---|---|');
    for (const i of installs)
      console.log(
        `| ${i.mode === 'full' ? 'with optional dependencies' : '--omit=optional'} | ${mib(i.nodeModules.bytes)} | ${mib(i.nodeModules.diskBytes)} | ${i.packages} | ${i.nodeLlamaCpp.packages.length ? `${mib(i.nodeLlamaCpp.bytes)} (${i.nodeLlamaCpp.packages.join(', ')})` : 'absent'} |`,
      );
    console.log(
      `optional dependencies add ${mib(full.nodeModules.bytes - omit.nodeModules.bytes)} (node-llama-cpp's packages: ${mib(full.nodeLlamaCpp.bytes)}); load ${load.toFixed(2)} on ${cpus().length} CPUs at the start`,
    );
    console.log(JSON.stringify(result));
    if (values['json-out']) writeFileSync(values['json-out'], JSON.stringify(result, null, 2) + '\n');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
