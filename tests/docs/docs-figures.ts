/**
 * `npm run docs:figures`: measure the figures the docs quote with a real run and write them into
 * every figure region of README.md and docs/**\/*.md (tests/docs/figures.ts lists the regions).
 *
 *   npm run docs:figures [-- --tarball TGZ] [--skip-demo]
 *
 * - pack-size: `npm pack` of this checkout (or --tarball), its size;
 * - demo-wall, demo-table, default-passages: `npm run demo -- --dir <empty temp dir>` in this checkout (as on a fresh
 *   clone: nothing built beforehand in the demo dir), its wall and CPU time, the machine (cores, CPU
 *   model, load average at the start) and its printed tables. The wall time is written only when the
 *   1-minute load average at the start was ≤ 1.5; otherwise the docs keep the old one and the
 *   script says why (figures-run.ts).
 * Commit the docs it changes; the docs check (`npm run docs:check`, CI) compares them with its own run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { docFiles } from './docs-check.js';
import { measureCaseTable3, REGIONS, type Facts } from './figures.js';
import { figureRegions } from './markdown.js';
import { measureDemo, parseTimes, thisMachine, writeFigures } from './figures-run.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function run(cmd: string, args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string; seconds: number }> {
  const t0 = performance.now();
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      process.stderr.write(d);
    });
    child.on('close', (code) => done({ code, stdout, stderr, seconds: (performance.now() - t0) / 1000 }));
  });
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { tarball: { type: 'string' }, 'skip-demo': { type: 'boolean' } } });
  const files = docFiles();
  const regions = files.flatMap((f) => figureRegions(f, readFileSync(join(ROOT, f), 'utf8')));
  const names = new Set(regions.map((r) => r.name));
  for (const n of names) if (!REGIONS[n]) throw new Error(`unknown figure region "${n}" (known: ${Object.keys(REGIONS).join(', ')})`);
  const facts: Facts = {};
  const tmp = mkdtempSync(join(tmpdir(), 'lexcase-figures-'));
  try {
    if (names.has('pack-size')) {
      let tgz = values.tarball && resolve(values.tarball);
      if (!tgz) {
        console.log('docs:figures: npm pack');
        const r = spawnSync('npm', ['pack', '--silent', '--pack-destination', tmp], { cwd: ROOT, encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`npm pack failed:\n${r.stderr}`);
        tgz = join(tmp, readdirSync(tmp).find((f) => f.endsWith('.tgz'))!);
      }
      facts.packBytes = statSync(tgz).size;
      console.log(`docs:figures: ${tgz}: ${facts.packBytes} bytes`);
    }
    if (names.has('case-table3')) {
      console.log('docs:figures: lexcase reproduce case-table3 (bundled default index + prebuilt use-lite vectors)');
      const main = join(ROOT, 'dist/src/cli/main.js');
      facts.caseTable3 = await measureCaseTable3((args) => run(process.execPath, [main, ...args.split(' ')], tmp), tmp);
    }
    const needsDemo = [...names].some((n) => REGIONS[n].needs.some((k) => k === 'demoStdout' || k === 'demoWall'));
    const why: Record<string, string> = {};
    if (needsDemo && !values['skip-demo']) {
      const machine = thisMachine();
      console.log(`docs:figures: npm run demo (fresh demo dir; load ${machine.load().toFixed(2)})`);
      const timesFile = join(tmp, 'times.txt');
      const d = await measureDemo(async () => {
        // sh's `times`: the CPU time of the demo and every process it waited for (worker threads included)
        const r = await run('sh', ['-c', 'npm run --silent demo -- --dir "$1"; s=$?; times > "$2"; exit $s', 'sh', join(tmp, 'demo'), timesFile], ROOT);
        let cpuSeconds: number | undefined;
        try {
          cpuSeconds = parseTimes(readFileSync(timesFile, 'utf8'));
        } catch {
          cpuSeconds = undefined;
        }
        return { code: r.code, stdout: r.stdout, seconds: r.seconds, cpuSeconds };
      }, machine);
      facts.demoStdout = d.demoStdout;
      if (d.demoWall) {
        facts.demoWall = d.demoWall;
        console.log(
          `docs:figures: the demo took ${d.demoWall.seconds.toFixed(1)} s wall${d.demoWall.cpuSeconds !== undefined ? `, ${d.demoWall.cpuSeconds.toFixed(1)} s CPU` : ''}`,
        );
      } else {
        why['demo-wall'] = d.kept!;
        console.log(`docs:figures: demo wall time not written: ${d.kept}`);
      }
    }
    writeFigures(ROOT, files, facts, why);
    return 0;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(
  (c) => process.exit(c),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
