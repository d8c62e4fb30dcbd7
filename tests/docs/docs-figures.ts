/**
 * `npm run docs:figures`: measure the figures the docs quote with a real run and write them into
 * every figure region of README.md and docs/**\/*.md (tests/docs/figures.ts lists the regions).
 *
 *   npm run docs:figures [-- --tarball TGZ] [--skip-demo]
 *
 * - pack-size: `npm pack` of this checkout (or --tarball), its size;
 * - demo-wall, demo-table: `npm run demo -- --dir <empty temp dir>` in this checkout (as on a fresh
 *   clone: nothing built beforehand in the demo dir), its wall time, the machine (cores, CPU model,
 *   load average at the start) and its printed tables.
 * Commit the docs it changes; the docs check (`npm run docs:check`, CI) compares them with its own run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { docFiles } from './docs-check.js';
import { measureCaseTable3, REGIONS, type Facts } from './figures.js';
import { figureRegions, replaceRegion } from './markdown.js';

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
    if (needsDemo && !values['skip-demo']) {
      const load = loadavg()[0];
      console.log(`docs:figures: npm run demo (fresh demo dir; load ${load.toFixed(2)})`);
      const r = await run('npm', ['run', '--silent', 'demo', '--', '--dir', join(tmp, 'demo')], ROOT);
      if (r.code !== 0) throw new Error(`npm run demo exited ${r.code}`);
      facts.demoStdout = r.stdout;
      facts.demoWall = { seconds: r.seconds, command: 'npm run demo', cpu: cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? '?', cores: cpus().length, load, date: new Date().toISOString().slice(0, 10) };
      console.log(`docs:figures: the demo took ${r.seconds.toFixed(1)} s wall`);
    }
    for (const f of files) {
      const path = join(ROOT, f);
      const before = readFileSync(path, 'utf8');
      let text = before;
      for (const r of figureRegions(f, before)) {
        const spec = REGIONS[r.name];
        if (spec.needs.some((k) => facts[k] === undefined)) {
          console.log(`docs:figures: ${f}:${r.line} ${r.name} left as it is (not measured in this run)`);
          continue;
        }
        text = replaceRegion(text, r.name, spec.render(facts));
      }
      if (text !== before) {
        writeFileSync(path, text);
        console.log(`docs:figures: wrote ${f}`);
      }
    }
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
