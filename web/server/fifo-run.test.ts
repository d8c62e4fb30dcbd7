/**
 * A FIFO where a run file should be does not hang the explorer (issue 26, item 11): with
 * `results.jsonl` made by mkfifo in a run under `--runs`, `/api/runs` used to never answer and the
 * server then ignored SIGTERM. Now run files are opened without blocking and read only when they
 * are regular files: `/api/runs` answers at once (that run listed with 0 items), the other runs
 * are listed as usual, and SIGTERM stops `lexcase serve` (the built CLI, a child process).
 * The same holds for the explorer's later readers (issue 30): a FIFO trace under `traces/` scanned by
 * `/api/passage`, and a FIFO `exchanges/<item>.jsonl` read by `/api/run/calls`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startCli } from '../../tests/support/cli-child.js';

const root = mkdtempSync(join(tmpdir(), 'lexcase-fifo-runs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function run(name: string, results: 'file' | 'fifo', fifoTraceAndCalls = false): void {
  const d = join(root, name);
  mkdirSync(join(d, 'traces'), { recursive: true });
  writeFileSync(join(d, 'config.json'), JSON.stringify({ seed: 1, config: { system: 'case', dataset: 'barexam' }, provenance: {} }));
  if (results === 'fifo') execFileSync('mkfifo', [join(d, 'results.jsonl')]);
  else writeFileSync(join(d, 'results.jsonl'), JSON.stringify({ id: 'q1', prediction: 'A', gold: 'A', correct: true, ms: 1 }) + '\n');
  if (fifoTraceAndCalls) {
    mkdirSync(join(d, 'exchanges'));
    execFileSync('mkfifo', [join(d, 'traces', 'q1.json'), join(d, 'exchanges', 'q1.jsonl')]);
  }
}

it.skipIf(process.platform === 'win32')(
  '/api/runs answers with a FIFO results.jsonl under --runs, and SIGTERM stops the server',
  async () => {
    run('a-fifo', 'fifo');
    run('b-ok', 'file');
    run('c-fifo-trace', 'file', true);
    const { child, done } = startCli(['serve', '--runs', root, '--port', '0'], { timeoutMs: 120_000 });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d;
        const m = /explorer at (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1].replace(/\/$/, ''));
      });
      void done.then((r) => reject(new Error(`serve exited: ${r.stderr}`)));
    });
    const ask = async () => {
      const t0 = performance.now();
      const res = await fetch(`${url}/api/runs`, { signal: AbortSignal.timeout(10_000) });
      return { status: res.status, body: ((await res.json()) as { runs: { id: string; items: number }[] }).runs, ms: performance.now() - t0 };
    };
    // Several requests: each used to hold one of libuv's threads for good.
    for (let i = 0; i < 5; i++) {
      const r = await ask();
      expect(r.status).toBe(200);
      expect(r.body.map((x) => [x.id, x.items])).toEqual([
        ['a-fifo', 0],
        ['b-ok', 1],
        ['c-fifo-trace', 1],
      ]);
    }
    // Readers added with the passage page and the LLM-call inspector: each answers, skipping the FIFO.
    for (let i = 0; i < 5; i++) {
      const p = await fetch(`${url}/api/passage?id=p1`, { signal: AbortSignal.timeout(10_000) });
      expect(p.status).toBe(200);
      expect((await p.json()) as { retrievedIn: unknown[] }).toMatchObject({ retrievedIn: [] });
      const c = await fetch(`${url}/api/run/calls?run=c-fifo-trace&item=q1`, { signal: AbortSignal.timeout(10_000) });
      expect(c.status).toBe(200);
      expect((await c.json()) as { source: string; calls: unknown[] }).toMatchObject({ source: 'trace', calls: [] });
    }
    const t0 = performance.now();
    child.kill('SIGTERM');
    const end = await done;
    expect(end.signal).toBeNull(); // it stopped itself, not killed by the test's timeout
    expect(end.code).toBe(0);
    expect(performance.now() - t0).toBeLessThan(10_000);
  },
  150_000,
);
