/**
 * docs:figures stamps a wall time only when the machine was quiet: with an injected 1-minute load
 * reading over 1.5 the demo's table is still written but its wall time is not (the old figure stays,
 * and the log says why); at a quiet load the wall time is written with the CPU time beside it. The
 * CPU time is the children's line of a POSIX shell's `times`, read from a real shell here.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_LOAD, measureDemo, parseTimes, thisMachine, writeFigures, type DemoRun, type Machine } from './figures-run.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-figures-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What `lexcase demo` prints, as much as the demo-table region reads. */
const DEMO_STDOUT = `## Retrieval

Corpus: **default** (6,151 passages) · dataset **barexam**, split **val** (n = 124)

| method | R@10 | p50 ms |
|---|---|---|
| bm25 | 0.4113 | 3.1 |

wrote x

## CASE (offline)

### Metrics

| metric | value |
|---|---|
| accuracy | 0.31 |

| baseline | accuracy |
|---|---|
| bm25 | 0.28 |
`;

const OLD_WALL =
  '**158.2 s** wall (`npm run demo` with an empty demo dir on 2 cores, AMD EPYC, load 14.8 at the start; measured by `npm run docs:figures` on 2026-11-26)';
const README = `It took <!-- figures:demo-wall -->${OLD_WALL}<!-- /figures:demo-wall -->.

<!-- figures:demo-table -->
old table
<!-- /figures:demo-table -->
`;

const machine = (load: number): Machine => ({ load: () => load, cpu: 'Test CPU', cores: 2, today: '2026-11-28' });
const demo = async (): Promise<DemoRun> => ({ code: 0, stdout: DEMO_STDOUT, seconds: 24.71, cpuSeconds: 31.24 });

describe('docs:figures on a loaded machine', () => {
  it('stamps no wall time on Windows, whose os.loadavg() is always [0, 0, 0] (before: read as load 0, a quiet machine)', async () => {
    const win = { ...thisMachine('win32', () => 0), cpu: 'Test CPU', cores: 2, today: '2026-11-28' };
    const d = await measureDemo(demo, win);
    expect(d.demoWall).toBeUndefined();
    expect(d.kept).toMatch(/no 1-minute load average .*24\.7 s wall, 31\.2 s CPU/);
    // where the load average exists, a quiet reading still stamps it
    expect((await measureDemo(demo, { ...thisMachine('linux', () => 0.4), cpu: 'Test CPU', cores: 2, today: '2026-11-28' })).demoWall).toMatchObject({
      load: 0.4,
    });
  });

  it(`keeps the old wall time at a 1-minute load over ${MAX_LOAD} and says why; the demo table is still written`, async () => {
    writeFileSync(join(dir, 'README.md'), README);
    const d = await measureDemo(demo, machine(3.2));
    expect(d.demoWall).toBeUndefined();
    expect(d.kept).toMatch(/1-minute load average was 3\.20 when the demo started \(over 1\.5\).*24\.7 s wall, 31\.2 s CPU/);
    const log: string[] = [];
    const written = writeFigures(dir, ['README.md'], { demoStdout: d.demoStdout }, { 'demo-wall': d.kept! }, (l) => log.push(l));
    expect(written).toEqual(['README.md']);
    const text = readFileSync(join(dir, 'README.md'), 'utf8');
    expect(text).toContain(`<!-- figures:demo-wall -->${OLD_WALL}<!-- /figures:demo-wall -->`);
    expect(text).not.toContain('old table');
    expect(text).toContain('| bm25 | 0.4113 | 3.1 |');
    expect(log.join('\n')).toMatch(/README\.md:1 demo-wall left as it is \(the 1-minute load average was 3\.20/);
  });

  it("on a loaded machine the demo table gets the run's figures but keeps the docs' latency cells (p50 ms); on a quiet one the latencies are written too", async () => {
    const oldTable = README.replace('old table', '| method | R@10 | p50 ms |\n|---|---|---|\n| bm25 | 0.4000 | 0.9 |');
    writeFileSync(join(dir, 'README.md'), oldTable);
    const loaded = await measureDemo(demo, machine(3.2));
    writeFigures(dir, ['README.md'], { demoStdout: loaded.demoStdout }, { 'demo-wall': loaded.kept! }, () => undefined);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain('| bm25 | 0.4113 | 0.9 |');
    writeFileSync(join(dir, 'README.md'), oldTable);
    const quiet = await measureDemo(demo, machine(0.4));
    writeFigures(dir, ['README.md'], { demoStdout: quiet.demoStdout, demoWall: quiet.demoWall }, {}, () => undefined);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain('| bm25 | 0.4113 | 3.1 |');
  });

  it('writes the wall time with the CPU time beside it at a quiet load (1.5 is still quiet)', async () => {
    writeFileSync(join(dir, 'README.md'), README);
    for (const load of [0.42, MAX_LOAD]) {
      const d = await measureDemo(demo, machine(load));
      expect(d.kept).toBeUndefined();
      writeFigures(dir, ['README.md'], { demoStdout: d.demoStdout, demoWall: d.demoWall }, {}, () => undefined);
      expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain(
        `<!-- figures:demo-wall -->**24.7 s** wall, 31.2 s CPU (\`npm run demo\` with an empty demo dir on 2 cores, Test CPU, load ${load.toFixed(1)} at the start; measured by \`npm run docs:figures\` on 2026-11-28)<!-- /figures:demo-wall -->`,
      );
    }
  });

  it('a load that cannot be read (NaN) is not quiet', async () => {
    expect((await measureDemo(demo, machine(Number.NaN))).demoWall).toBeUndefined();
  });

  it("reads the CPU seconds of a shell's children from `times` (dash and bash formats)", () => {
    expect(parseTimes('0m0.000000s 0m0.000000s\n0m1.670000s 0m0.060000s\n')).toBeCloseTo(1.73, 6);
    expect(parseTimes('0m0.001s 0m0.002s\n1m2.500s 0m0.500s\n')).toBeCloseTo(63, 6);
    expect(parseTimes('garbage')).toBeUndefined();
    // a real shell: a child's fixed work (1e8 additions, ~0.1–0.6 s of CPU whatever the load) shows up as CPU time
    const out = execFileSync(
      'sh',
      ['-c', `${JSON.stringify(process.execPath)} -e "let x = 0; for (let i = 0; i < 1e8; i++) x += i; if (x < 0) console.log(x);"; times`],
      { encoding: 'utf8' },
    );
    expect(parseTimes(out)).toBeGreaterThan(0.03);
  });
});
