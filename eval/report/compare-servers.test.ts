/**
 * Two runs asking one model name of different servers (another base URL, another deployment by query, or
 * a server that loaded another model under the name): compare says so in a pairing line naming the two
 * servers by host:port/path only — never a userinfo, a query value or a key — on the text, --json and the
 * explorer, instead of leaving it among the config differences. One server: no line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { llmConfigSchema, publicLlmConfig } from '../../core/config.js';
import { REPLAY_BASE_URL } from '../../core/llm/endpoint.js';
import { loadLegalBenchTask } from '../../corpora/legalbench.js';
import type { TaskExample } from '../../corpora/types.js';
import { compareRunsView } from '../../web/server/compare-api.js';
import { compareManyRuns } from '../../web/server/compare-runs-api.js';
import { listRuns } from '../../web/server/runs.js';
import { contextFrom, runExperiment } from '../runner.js';
import type { AgentSystem } from '../types.js';
import { compareRuns, formatComparison } from './compare.js';

let dir: string;
let items: TaskExample[];
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-compare-servers-'));
  items = (await loadLegalBenchTask('hearsay', { split: 'test' })).slice(0, 10);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const system: AgentSystem<TaskExample> = async () => ({ prediction: 'No', trace: {} });
/** A run whose config.json records its model as `lexcase run` does (publicLlmConfig: the URL's credentials masked). */
const run = (name: string, baseUrl: string, model = 'local-model') =>
  runWith(name, llmConfigSchema.parse({ provider: 'llamacpp', model, baseUrl, apiKey: 'sk-live-0123456789abcdef' }));
const runWith = (name: string, llm: ReturnType<typeof llmConfigSchema.parse>) =>
  runExperiment({
    runDir: join(dir, name),
    system,
    items,
    gold: (x) => x.label,
    makeContext: contextFrom(),
    config: {
      system: 'acal/sp',
      task: 'hearsay',
      split: 'test',
      model: publicLlmConfig(llm),
    },
    seed: 13,
  });

/** Each item's line as the runner records one LLM call answered under the server identity `identity`. */
function recordIdentity(runDir: string, identity: string) {
  const file = join(runDir, 'results.jsonl');
  const out = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.stringify({ ...JSON.parse(l), tokens: { input: 120, output: 4, total: 124, calls: 1, cached: 0 }, serverIdentities: { [identity]: 1 } }));
  writeFileSync(file, `${out.join('\n')}\n`);
}

const serverLines = (lines: string[]) => lines.filter((l) => l.includes('of different servers') || l.includes('GET /models described'));

describe('compare of two runs asking one model name', () => {
  it('names the two servers, host:port/path only, on the text, --json and the explorer', async () => {
    await run('a', 'http://alice:hunter2@localhost:8080/v1?api-key=sk-secret-key');
    await run('b', 'http://gpu-box:8000/v1/');
    const c = await compareRuns(join(dir, 'a'), join(dir, 'b'));
    const line = 'the two runs asked model "local-model" of different servers — A localhost:8080/v1, B gpu-box:8000/v1: their figures are not of one server';
    expect(serverLines(c.pairingLines)).toEqual([line]);
    const text = formatComparison(c);
    expect(text).toContain(`- ${line}`);
    const json = JSON.stringify(c);
    expect(JSON.parse(json).pairingLines).toContain(line);
    for (const secret of ['alice', 'hunter2', 'sk-secret-key', 'sk-live']) {
      expect(line).not.toContain(secret);
      expect(json).not.toContain(secret);
    }

    const runs = await listRuns(dir);
    const [A, B] = ['a', 'b'].map((n) => runs.find((r) => r.dir === join(dir, n))!);
    expect((await compareRunsView(A, B)).pairingLines).toContain(line);
    expect((await compareManyRuns([A, B])).pairs[0]).toMatchObject({ pairingLines: expect.arrayContaining([line]) });
  });

  it('says when one URL served two deployments (other query values) or described the model otherwise', async () => {
    await run('a', 'https://gw.example.com/openai?deployment=small&api-key=k1');
    await run('b', 'https://gw.example.com/openai?deployment=large&api-key=k1');
    const [q] = serverLines((await compareRuns(join(dir, 'a'), join(dir, 'b'))).pairingLines);
    expect(q).toMatch(
      /^the two runs asked model "local-model" of different servers — A gw\.example\.com\/openai \(query values [0-9a-f]{12}\), B gw\.example\.com\/openai \(query values [0-9a-f]{12}\): the same URL with other query values/,
    );
    expect(q).not.toMatch(/small|large|k1/);

    await run('c', 'http://localhost:8080/v1');
    await run('d', 'http://localhost:8080/v1');
    recordIdentity(join(dir, 'c'), '"local-model" (GET /models entry 553f2fece670)');
    recordIdentity(join(dir, 'd'), '"local-model" (GET /models entry 9b1c04d2e7aa)');
    expect(serverLines((await compareRuns(join(dir, 'c'), join(dir, 'd'))).pairingLines)).toEqual([
      'the two runs asked model "local-model" of localhost:8080/v1, whose GET /models described it otherwise (another model loaded under the name) — A "local-model" (GET /models entry 553f2fece670); B "local-model" (GET /models entry 9b1c04d2e7aa): their figures are not of one server',
    ]);
  });

  it('names each port when two URLs differ only by scheme (http://gw/v1 is port 80, https://gw/v1 port 443)', async () => {
    await run('a', 'http://gw.example.com/v1');
    await run('b', 'https://gw.example.com/v1');
    expect(serverLines((await compareRuns(join(dir, 'a'), join(dir, 'b'))).pairingLines)).toEqual([
      'the two runs asked model "local-model" of different servers — A gw.example.com:80/v1, B gw.example.com:443/v1: their figures are not of one server',
    ]);
    // the same server, its default port once named and once not: no line
    await run('c', 'https://gw.example.com:443/v1');
    expect(serverLines((await compareRuns(join(dir, 'b'), join(dir, 'c'))).pairingLines)).toEqual([]);
  });

  it('names a server beside a model file run in-process (provider local) under the same model name', async () => {
    await run('a', 'http://localhost:8080/v1');
    await runWith('local', llmConfigSchema.parse({ provider: 'local', model: 'local-model', modelFile: '/models/qwen-0.5b-q4.gguf' }));
    expect(serverLines((await compareRuns(join(dir, 'a'), join(dir, 'local'))).pairingLines)).toEqual([
      'the two runs asked model "local-model" of different servers — A localhost:8080/v1, B the model file qwen-0.5b-q4.gguf, run in-process: their figures are not of one server',
    ]);
  });

  it('gives no line for one server, for two model names (the config differences say that), nor for a replay of a run', async () => {
    await run('a', 'http://localhost:8080/v1');
    await run('b', 'http://localhost:8080/v1/');
    recordIdentity(join(dir, 'a'), '"local-model" (GET /models entry 553f2fece670)');
    recordIdentity(join(dir, 'b'), '"local-model" (GET /models entry 553f2fece670)');
    expect(serverLines((await compareRuns(join(dir, 'a'), join(dir, 'b'))).pairingLines)).toEqual([]);
    await run('c', 'http://gpu-box:8000/v1', 'other-model');
    expect(serverLines((await compareRuns(join(dir, 'a'), join(dir, 'c'))).pairingLines)).toEqual([]);
    // a replay (--replay DIR) records REPLAY_BASE_URL: its replies are the recording's, of no other server
    await run('replay', REPLAY_BASE_URL);
    expect(serverLines((await compareRuns(join(dir, 'a'), join(dir, 'replay'))).pairingLines)).toEqual([]);
  });
});
