/**
 * report.md's Run section printed only config values that are not objects, so an LLM run's report
 * (audit: runs/caseK, runs/madE) never named its model, endpoint, temperature, structured-output
 * mode or prompts hash — they sit in config.json's `model` and `prompts` objects. Now it names them,
 * the endpoint without credentials or query values.
 */
import { describe, expect, it } from 'vitest';
import type { RunConfigFile } from '../../run-config-file.js';
import type { RunData } from '../types.js';
import { summarySection } from './summary.js';

const provenance = {
  lexcaseVersion: '0.1.0',
  gitSha: 'b72e47bc16507a03c91c176470cdb10c1fc8d572',
  node: 'v20.20.2',
  datasetChecksum: 'sha256:33e1d0197dfa805f5d9b40cf763ac50eb3de8d1b7740d6193e19408ab2fc8956',
  items: 8,
  createdAt: '2026-11-30T10:18:32.129Z',
};
/** runs/caseK's config.json, with an endpoint that carries credentials and a key in its query. */
const caseK: Record<string, unknown> = {
  system: 'case',
  mode: 'llm',
  jurors: 3,
  k: 5,
  dataset: 'barexam',
  split: 'val',
  limit: 8,
  indexContent: { corpus: 'barexam', checksum: 'cdf8edb5ced9c196', passages: 1149 },
  retrievers: ['bm25', 'qld'],
  model: {
    temperature: 0.3,
    timeoutMs: 120000,
    structuredOutput: 'json_schema',
    maxRetries: 4,
    concurrency: 4,
    baseUrl: 'https://alice:s3cret@llm.example.org:8443/v1?api-key=k-123456',
    cacheDir: false,
    model: 'llama-3.3-70b-instruct',
    apiKey: '***',
  },
  prompts: { sha256: 'e6102e81dac220c82716ff0afc065e10d7fd8cc9e048551cde3c729ec6e554a3', parts: { advocate: '404986dea0a57739' } },
  seedDerivation: 'fnv1a-fmix32',
};
const runOf = (config: Record<string, unknown>): RunData => ({
  dir: 'runs/caseK',
  config: { seed: 21, config, provenance } as RunConfigFile,
  results: [],
  traces: new Map(),
  droppedTail: false,
});

describe("report.md's Run section", () => {
  it('names an LLM run’s model, provider, endpoint (masked), temperature, structured-output mode and prompts hash (before: none of them)', async () => {
    const md = (await summarySection(runOf(caseK), {} as never))!.markdown;
    for (const line of [
      '- **model**: llama-3.3-70b-instruct',
      '- **provider**: generic',
      '- **endpoint**: https://llm.example.org:8443/v1?api-key',
      '- **temperature**: 0.3',
      '- **structured output**: json_schema',
      '- **prompts sha256**: e6102e81dac2…',
    ])
      expect(md).toContain(line);
    expect(md).not.toMatch(/s3cret|alice|k-123456/);
    expect(md).toContain('- **retrievers**: bm25, qld'); // the other fields as before
  });

  it("names the top_p, max_tokens and LLM seed every request carried apart from the run's maxTokens budget and seed (helper audit)", async () => {
    const md = (await summarySection(
      runOf({ ...caseK, maxTokens: 20000, model: { ...(caseK.model as object), topP: 0.6, maxTokens: 700, seed: 9 } }),
      {} as never,
    ))!.markdown;
    for (const line of [
      '- **top_p (each request)**: 0.6',
      '- **max_tokens (each request)**: 700',
      '- **LLM seed (each request)**: 9',
      '- **maxTokens**: 20000',
    ])
      expect(md).toContain(line);
    // none set: no line
    expect((await summarySection(runOf(caseK), {} as never))!.markdown).not.toMatch(/each request/);
  });

  it('a local model names its file, not its path; an offline run has no LLM lines', async () => {
    const local = (await summarySection(
      runOf({ ...caseK, model: { provider: 'local', modelFile: '/models/qwen2.5-0.5b-q4.gguf', temperature: 0 } }),
      {} as never,
    ))!;
    expect(local.markdown).toContain('- **provider**: local');
    expect(local.markdown).toContain('- **model file**: qwen2.5-0.5b-q4.gguf');
    expect(local.markdown).not.toContain('/models/');
    const offline = (await summarySection(runOf({ system: 'case', mode: 'offline' }), {} as never))!;
    expect(offline.markdown).not.toMatch(/provider|endpoint|temperature|prompts/);
  });

  it('names the commits a resume ran under when they are not the run’s own (before: only the first commit, "resumed: 1×")', async () => {
    const run = runOf({ system: 'case', mode: 'offline' });
    const resume = (gitSha: string, items: number, skipped: number) => ({
      at: provenance.createdAt,
      gitSha,
      datasetChecksum: provenance.datasetChecksum,
      items,
      skipped,
    });
    run.config.resumes = [resume('1'.repeat(40), 6, 3), resume(provenance.gitSha, 8, 6)];
    const md = (await summarySection(run, {} as never))!.markdown;
    expect(md).toContain(`- **git sha**: ${provenance.gitSha}`);
    expect(md).toContain('- **resumed**: 2×');
    expect(md).toContain('- **resumed under**: 111111111111 (3 items to run) — not the git sha above: the items a resume ran were made by its code');
    // resumes under the run's own commit add no line
    run.config.resumes = [resume(provenance.gitSha, 8, 6)];
    expect((await summarySection(run, {} as never))!.markdown).not.toContain('resumed under');
  });
});

describe("report.md's Run section on a resume that found an older reading", () => {
  // a run dir whose config.json recorded replyReading as an older lexcase did (2 items), resumed by this lexcase: the resume
  // warned on stderr and recorded `unchecked`, while config.json now shows the current replyReading for all 4 items
  const resumed = (): RunData => {
    const run = runOf({ ...caseK, replyReading: 'think and thinking blocks … identical tool calls in one reply run once' });
    run.config.resumes = [
      {
        at: '2026-12-03T10:24:49.702Z',
        gitSha: provenance.gitSha,
        datasetChecksum: provenance.datasetChecksum,
        items: 4,
        skipped: 2,
        unchecked: ['replyReading'],
      },
    ];
    return run;
  };
  it('says the items done before the resume were read under the older lexcase’s reading (before: only "resumed: 1×" beside the new value)', async () => {
    const s = (await summarySection(resumed(), {} as never))!;
    expect(s.markdown).toContain(
      "- **warning**: resume of 2026-12-03T10:24:49.702Z found config.json written by an older lexcase without, or with an older value of, replyReading: the 2 items done before it were made under that older lexcase's",
    );
    expect((s.json as { resumeWarnings?: string[] }).resumeWarnings).toHaveLength(1);
  });
  it('adds no line for a resume that checked every field', async () => {
    const run = resumed();
    run.config.resumes = [{ ...run.config.resumes![0], unchecked: undefined }];
    const s = (await summarySection(run, {} as never))!;
    expect(s.markdown).not.toContain('older lexcase');
    expect((s.json as { resumeWarnings?: string[] }).resumeWarnings).toBeUndefined();
  });
});
