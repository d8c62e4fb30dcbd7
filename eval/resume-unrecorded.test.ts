/**
 * Run dirs written before config.json recorded the index's content (`indexContent`, or in it the
 * settings of the index's dense vectors, `indexContent.dense.vectors`) or the whole
 * public LLM config (`model` as an object, for EMAR, 3-ply and ACAL) or how the items' seeds are
 * derived (`seedDerivation`) still resume: the missing
 * field is unknown, not a difference — a warning says so, the resume entry lists it as unchecked,
 * and config.json records it from then on, so the next resume checks it. A field that is recorded
 * and differs is still refused.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withUnrecorded } from './resume-unrecorded.js';
import { NAMED_ANSWER_READINGS } from '../core/llm/named-answer-readings.js';
import { RECORDED_READINGS } from '../core/recorded-readings.js';
import { REPLY_READING } from '../core/llm/reply-reading.js';
import { PASSAGE_HANDLE_READING } from '../agents/common/passage-handle-reading.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadQuestions } from '../corpora/registry.js';
import type { Question } from '../corpora/types.js';
import { SEED_DERIVATION } from '../core/rng.js';
import { REQUEST_SEEDS } from '../agents/mad/llm-call.js';
import { JURY_TIE_RULE } from '../agents/case/majority-vote.js';
import { RELATIONS_READING } from '../agents/acal/llm/identify-relations.js';
import { SCORES_READING } from '../agents/acal/llm/score-arguments.js';
import { TERMINATE_READING } from '../agents/threeply/format.js';
import { POLISHER_READING } from '../agents/threeply/argument-polisher.js';
import { FACTOR_MENTION_READING } from '../agents/threeply/metrics.js';
import { contextFrom, runExperiment } from './runner.js';
import type { AgentSystem } from './types.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-unrecorded-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const system: AgentSystem<Question> = async () => ({ prediction: 'B', trace: {} });
const INDEX = {
  corpus: 'barexam',
  checksum: 'sha-a',
  passages: 1017,
  analyzer: { lowercase: true, stopwords: 'english', stemmer: 'porter', minTokenLength: 1 },
};
const MODEL = { provider: 'openai', baseUrl: 'http://127.0.0.1:18123/v1', model: 'm', temperature: 0, structuredOutput: 'json_schema' };

async function resume(items: Question[], config: Record<string, unknown>): Promise<{ stderr: string }> {
  let stderr = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
  try {
    // each run is one of lexcase's systems (its config's), whose fields an older lexcase may not have recorded
    const lexcaseSystem = String(config.system).split('/')[0];
    await runExperiment({ runDir: dir, system, items, gold: (q) => q.answer, makeContext: contextFrom(), config, seed: 13, lexcaseSystem });
  } finally {
    spy.mockRestore();
  }
  return { stderr };
}
const configOf = () => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
/** The run dir's config.json as an older lexcase wrote it: without `field`. */
function forget(field: string): void {
  const old = configOf();
  delete old.config[field];
  writeFileSync(join(dir, 'config.json'), JSON.stringify(old));
}

describe('resuming a run dir an older lexcase wrote', () => {
  it('old config without indexContent and with the model id only: resumes with a warning, records them as unchecked, and refuses a different index or endpoint afterwards', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 4);
    const base = { system: 'emar', dataset: 'barexam', split: 'val', index: '/data/idx' };
    await resume(val.slice(0, 2), { ...base, limit: 2, indexContent: INDEX, model: MODEL });
    // what an older lexcase wrote: the index path only, the model id only
    const old = configOf();
    delete old.config.indexContent;
    old.config.model = 'm';
    writeFileSync(join(dir, 'config.json'), JSON.stringify(old));

    const { stderr } = await resume(val.slice(0, 3), { ...base, limit: 3, indexContent: INDEX, model: MODEL });
    expect(stderr).toMatch(/\[warn\] .*config\.json was written by an older lexcase and does not record indexContent .*, model .*cannot check/);
    expect(stderr).not.toContain('[warn] warning:');
    const c = configOf();
    expect(c.resumes.at(-1)).toMatchObject({ unchecked: ['indexContent', 'model'], grown: { limit: { from: 2, to: 3 } } });
    expect(c.config).toMatchObject({ indexContent: INDEX, model: MODEL, limit: 3 });

    // recorded from now on: another index or another endpoint is refused, results.jsonl untouched
    const lines = readFileSync(join(dir, 'results.jsonl'), 'utf8');
    await expect(resume(val, { ...base, limit: 4, indexContent: { ...INDEX, checksum: 'sha-b' }, model: MODEL })).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(/field "indexContent" differs/),
    });
    await expect(resume(val, { ...base, limit: 4, indexContent: INDEX, model: { ...MODEL, baseUrl: 'http://127.0.0.1:18124/v1' } })).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(/field "model" differs/),
    });
    expect(readFileSync(join(dir, 'results.jsonl'), 'utf8')).toBe(lines);
  });

  it('old indexContent with a dense part but no vector settings: resumes with a warning, records them as unchecked, and refuses re-embedded vectors afterwards', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 4);
    const dense = { embedder: 'use-lite', model: 'universal-sentence-encoder-lite', dimension: 512 };
    const vectors = (maxWords: number) => ({ maxWords, queryPrefix: '', passagePrefix: '', quantized: false });
    const content = (maxWords: number) => ({ ...INDEX, dense: { ...dense, vectors: vectors(maxWords) } });
    const base = { system: 'baseline', mode: 'dense-rag', dataset: 'barexam', split: 'val', index: '/data/idx-d' };
    await resume(val.slice(0, 2), { ...base, limit: 2, indexContent: content(5) });
    // what an older lexcase wrote: the dense model and dimension only
    const old = configOf();
    delete old.config.indexContent.dense.vectors;
    writeFileSync(join(dir, 'config.json'), JSON.stringify(old));

    const { stderr } = await resume(val.slice(0, 3), { ...base, limit: 3, indexContent: content(5) });
    expect(stderr).toMatch(
      /\[warn\] .*config\.json was written by an older lexcase and does not record indexContent\.dense\.vectors \(the settings the index's dense vectors were made with\).*cannot check/,
    );
    const c = configOf();
    expect(c.resumes.at(-1)).toMatchObject({ unchecked: ['indexContent.dense.vectors'], grown: { limit: { from: 2, to: 3 } } });
    expect(c.config.indexContent).toEqual(content(5));

    // recorded from now on: the same table re-embedded with 256 words is refused, results.jsonl untouched
    const lines = readFileSync(join(dir, 'results.jsonl'), 'utf8');
    await expect(resume(val, { ...base, limit: 4, indexContent: content(256) })).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(/field "indexContent" differs/),
    });
    expect(readFileSync(join(dir, 'results.jsonl'), 'utf8')).toBe(lines);
    // the same vectors: the run grows
    await resume(val, { ...base, limit: 4, indexContent: content(5) });
    expect(configOf().resumes.at(-1)).not.toHaveProperty('unchecked');
  });

  it('old dense vectors without their source (endpoint / model files): resumes with a warning, and refuses vectors from another endpoint afterwards', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 4);
    const vectors = { maxWords: 0, queryPrefix: 'query: ', passagePrefix: 'passage: ', quantized: false };
    const content = (source: string) => ({ ...INDEX, dense: { embedder: 'openai', model: 'e5-small', dimension: 384, vectors: { ...vectors, source } } });
    const base = { system: 'baseline', mode: 'dense-rag', dataset: 'barexam', split: 'val', index: '/data/idx-e5' };
    await resume(val.slice(0, 2), { ...base, limit: 2, indexContent: content('endpoint http://gpu-a.lab:8080/v1') });
    // what an older lexcase wrote: the vector settings without their source
    const old = configOf();
    delete old.config.indexContent.dense.vectors.source;
    writeFileSync(join(dir, 'config.json'), JSON.stringify(old));

    // before: refused as a difference ("field indexContent differs") although only unrecorded
    const { stderr } = await resume(val.slice(0, 3), { ...base, limit: 3, indexContent: content('endpoint http://gpu-a.lab:8080/v1') });
    expect(stderr).toMatch(
      /does not record indexContent\.dense\.vectors\.source \(the embedding endpoint or model files the index's dense vectors came from\).*cannot check/,
    );
    expect(configOf().resumes.at(-1)).toMatchObject({ unchecked: ['indexContent.dense.vectors.source'] });
    // recorded from now on: the same model name served by another endpoint is refused
    await expect(resume(val, { ...base, limit: 4, indexContent: content('endpoint http://gpu-b.lab:8080/v1') })).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(/field "indexContent" differs/),
    });
  });

  it('old dense vectors without the checksum of the titles and texts they were embedded from: resumes with a warning, and refuses vectors of other titles afterwards', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 4);
    const vectors = { maxWords: 128, queryPrefix: '', passagePrefix: '', quantized: false };
    const content = (embeddedTextChecksum: string) => ({
      ...INDEX,
      dense: { embedder: 'use-lite', model: 'universal-sentence-encoder-lite', dimension: 512, vectors, embeddedTextChecksum },
    });
    const base = { system: 'baseline', mode: 'dense-rag', dataset: 'barexam', split: 'val', index: '/data/idx-use-lite' };
    await resume(val.slice(0, 2), { ...base, limit: 2, indexContent: content('5dcb376ffc99'.padEnd(64, '0')) });
    // what an older lexcase wrote: the dense part without the embedded-text checksum
    const old = configOf();
    delete old.config.indexContent.dense.embeddedTextChecksum;
    writeFileSync(join(dir, 'config.json'), JSON.stringify(old));

    const { stderr } = await resume(val.slice(0, 3), { ...base, limit: 3, indexContent: content('5dcb376ffc99'.padEnd(64, '0')) });
    expect(stderr).toMatch(/does not record indexContent\.dense\.embeddedTextChecksum \(the checksum of the passages' titles and texts .*\).*cannot check/);
    expect(configOf().resumes.at(-1)).toMatchObject({ unchecked: ['indexContent.dense.embeddedTextChecksum'] });
    // recorded from now on: the same corpus checksum, vectors embedded from other titles, is refused
    await expect(resume(val, { ...base, limit: 4, indexContent: content('9a1e'.padEnd(64, '0')) })).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(/field "indexContent" differs/),
    });
  });

  it('an old MAD run without requestSeeds (its seeds were always derived per role) resumes with a warning and records it from then on', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 3);
    const old = { system: 'mad/mad', rounds: 2, k: 5, model: MODEL };
    await resume(val.slice(0, 2), old);
    const r = await resume(val, { ...old, requestSeeds: REQUEST_SEEDS });
    expect(r.stderr).toMatch(/does not record requestSeeds \(how MAD's requests' seeds are made\)/);
    expect(configOf().config.requestSeeds).toBe(REQUEST_SEEDS);
    expect(configOf().resumes.at(-1).unchecked).toEqual(['requestSeeds']);
  });

  it("an old 3-ply run without evaluatorTemperature (the Factor Distiller's, always 0) resumes with a warning; another value is refused", async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 3);
    const old = { system: 'threeply', model: MODEL, temperature: 0.9 };
    await resume(val.slice(0, 2), old);
    await expect(resume(val, { ...old, evaluatorTemperature: 0.5 })).rejects.toMatchObject({
      message: expect.stringMatching(/field "evaluatorTemperature" differs/),
    });
    const r = await resume(val, { ...old, evaluatorTemperature: 0 });
    expect(r.stderr).toMatch(/does not record evaluatorTemperature \(the 3-ply Factor Distiller's temperature\)/);
    expect(configOf().config.evaluatorTemperature).toBe(0);
  });

  it('an old model id that is not the new model is a difference, not unknown', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 3);
    await resume(val.slice(0, 2), { system: 'threeply', limit: 2, model: 'm' });
    await expect(resume(val, { system: 'threeply', limit: 3, model: { ...MODEL, model: 'm2' } })).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(/field "model" differs/),
    });
  });

  it('an old ACAL run without evidenceQuery: hearsay (same query then) resumes with a warning; learned_hands_courts with retrieval (first 600 characters then) is refused', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 3);
    const query = (task: string) =>
      task === 'hearsay' ? 'hearsay out-of-court statement truth of the matter asserted {text}' : 'court procedure filing lawsuit hiring a lawyer {text}';
    const cfg = (task: string, limit: number, k = 5) => ({ system: 'acal/rag', task, split: 'test', limit, k, evidenceQuery: query(task), model: MODEL });
    const writeOld = () => {
      const old = configOf();
      delete old.config.evidenceQuery;
      writeFileSync(join(dir, 'config.json'), JSON.stringify(old));
    };

    await resume(val.slice(0, 2), cfg('hearsay', 2));
    writeOld();
    const { stderr } = await resume(val, cfg('hearsay', 3));
    expect(stderr).toMatch(/does not record evidenceQuery \(the evidence search query\)/);
    expect(configOf().resumes.at(-1)).toMatchObject({ unchecked: ['evidenceQuery'] });

    rmSync(dir, { recursive: true, force: true });
    await resume(val.slice(0, 2), cfg('learned_hands_courts', 2));
    writeOld();
    const lines = readFileSync(join(dir, 'results.jsonl'), 'utf8');
    await expect(resume(val, cfg('learned_hands_courts', 3))).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(/field "evidenceQuery" differs: .*searched with the first 600 characters of each post only\); use a new run dir/),
    });
    expect(readFileSync(join(dir, 'results.jsonl'), 'utf8')).toBe(lines);

    // -k 0 searched nothing: nothing to differ
    rmSync(dir, { recursive: true, force: true });
    await resume(val.slice(0, 2), cfg('learned_hands_courts', 2, 0));
    writeOld();
    await resume(val, cfg('learned_hands_courts', 3, 0));
    expect(configOf().resumes.at(-1)).toMatchObject({ unchecked: ['evidenceQuery'] });
  });

  it('an old CASE exploratory run without hypothesisMapping (a tie mapped to the lowest letter then) is refused, saying why; a direct run records none', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 3);
    const cfg = (limit: number) => ({
      system: 'case',
      mode: 'llm',
      hypotheses: 'exploratory',
      hypothesisMapping: 'jaccard of content words, a tie maps to no option',
      limit,
      model: 'm',
    });
    await resume(val.slice(0, 2), cfg(2));
    const old = configOf();
    delete old.config.hypothesisMapping;
    writeFileSync(join(dir, 'config.json'), JSON.stringify(old));
    const lines = readFileSync(join(dir, 'results.jsonl'), 'utf8');
    await expect(resume(val, cfg(3))).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(
        /field "hypothesisMapping" differs: .*gave a hypothesis equally close to several options the lowest letter \(towards option A; now none\).*\); use a new run dir/,
      ),
    });
    expect(readFileSync(join(dir, 'results.jsonl'), 'utf8')).toBe(lines);
  });

  it('an old CASE run without juryTieRule (tied letters told apart by their float evidence sums then): resumes with a warning naming it and records it; another recorded rule is refused', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 4);
    const cfg = (limit: number, juryTieRule = JURY_TIE_RULE) => ({ system: 'case', mode: 'llm', hypotheses: 'direct', juryTieRule, limit, model: MODEL });
    await resume(val.slice(0, 2), cfg(2));
    forget('juryTieRule');
    const { stderr } = await resume(val.slice(0, 3), cfg(3));
    expect(stderr).toMatch(
      /does not record juryTieRule \(how CASE's jury breaks a tied vote: an older lexcase compared the tied letters' summed evidence scores exactly/,
    );
    expect(configOf()).toMatchObject({ config: { juryTieRule: JURY_TIE_RULE }, resumes: [{ unchecked: ['juryTieRule'] }] });
    await expect(resume(val, cfg(4, 'summed evidence score, then the lowest letter'))).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(/field "juryTieRule" differs/),
    });
  });

  it('an old ACAL run without relationsReading (a pair judged twice two ways read as its first judgement then): resumes with a warning naming it and records it', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 3);
    const cfg = (limit: number) => ({ system: 'acal/acal', task: 'hearsay', limit, k: 0, relationsReading: RELATIONS_READING, model: MODEL });
    await resume(val.slice(0, 1), cfg(1));
    forget('relationsReading');
    const { stderr } = await resume(val.slice(0, 2), cfg(2));
    expect(stderr).toMatch(
      /does not record relationsReading \(how an argument-relations reply is read: an older lexcase kept the first of two different judgements/,
    );
    expect(configOf()).toMatchObject({ config: { relationsReading: RELATIONS_READING }, resumes: [{ unchecked: ['relationsReading'] }] });
  });

  it('an old ACAL run without scoresReading (an argument scored twice two ways read as its first score then): resumes with a warning naming it and records it', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 3);
    const cfg = (limit: number) => ({ system: 'acal/acal', task: 'hearsay', limit, k: 0, scoresReading: SCORES_READING, model: MODEL });
    await resume(val.slice(0, 1), cfg(1));
    forget('scoresReading');
    const { stderr } = await resume(val.slice(0, 2), cfg(2));
    expect(stderr).toMatch(/does not record scoresReading \(how an argument-scores reply is read: an older lexcase kept the first of two different scores/);
    expect(configOf()).toMatchObject({ config: { scoresReading: SCORES_READING }, resumes: [{ unchecked: ['scoresReading'] }] });
  });

  it('an old 3-ply run without factorMentionReading ("F4 …, F6 …" read as F4 alone then): resumes with a warning naming it and records it', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 3);
    const cfg = (limit: number) => ({ system: 'threeply', variant: 'single', limit, factorMentionReading: FACTOR_MENTION_READING, model: MODEL });
    await resume(val.slice(0, 1), cfg(1));
    forget('factorMentionReading');
    const { stderr } = await resume(val.slice(0, 2), cfg(2));
    expect(stderr).toMatch(
      /does not record factorMentionReading \(how the Factor Distiller's factor strings are read: an older lexcase read a string naming several factors/,
    );
    expect(configOf()).toMatchObject({ config: { factorMentionReading: FACTOR_MENTION_READING }, resumes: [{ unchecked: ['factorMentionReading'] }] });
  });

  it('a 3-ply run that recorded the factorMentionReading of 2026-12-01 ("F4 …, Security-measures (P)" read as F4 alone): resumes with a warning that it records an older one', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 3);
    const cfg = (limit: number) => ({ system: 'threeply', variant: 'single', limit, factorMentionReading: FACTOR_MENTION_READING, model: MODEL });
    await resume(val.slice(0, 1), cfg(1));
    const old = configOf();
    old.config.factorMentionReading =
      'every factor id a string names ("F4 …, F6 …" is F4 and F6; "F06", "Factor 6"); without ids, factor names split at "," ";" "/" "&" "and" when each part names one; else the string as written (not a factor)';
    writeFileSync(join(dir, 'config.json'), JSON.stringify(old));
    const { stderr } = await resume(val.slice(0, 2), cfg(2));
    expect(stderr).toMatch(
      /records an older factorMentionReading \(how the Factor Distiller's factor strings are read: .*"F4 Agreed-not-to-disclose \(P\), Security-measures \(P\)"\) as the id alone/,
    );
    expect(configOf()).toMatchObject({ config: { factorMentionReading: FACTOR_MENTION_READING }, resumes: [{ unchecked: ['factorMentionReading'] }] });
  });

  it('an old reflective 3-ply run without polisherReading (a Polisher reply without revision_needed read as no revision then): resumes with a warning naming it', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 3);
    const cfg = (limit: number) => ({ system: 'threeply', variant: 'reflective', limit, polisherReading: POLISHER_READING, model: MODEL });
    await resume(val.slice(0, 1), cfg(1));
    forget('polisherReading');
    const { stderr } = await resume(val.slice(0, 2), cfg(2));
    expect(stderr).toMatch(
      /does not record polisherReading \(how the Argument Polisher's reply is read: an older lexcase read a reply that left out revision_needed as no revision/,
    );
    expect(configOf()).toMatchObject({ config: { polisherReading: POLISHER_READING }, resumes: [{ unchecked: ['polisherReading'] }] });
  });

  it('an old 3-ply run without terminateReading ("Terminate the contract …" an abstention then): resumes with a warning naming it', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 3);
    const cfg = (limit: number) => ({ system: 'threeply', variant: 'multi-no-reflection', limit, terminateReading: TERMINATE_READING, model: MODEL });
    await resume(val.slice(0, 1), cfg(1));
    forget('terminateReading');
    const { stderr } = await resume(val.slice(0, 2), cfg(2));
    expect(stderr).toMatch(
      /does not record terminateReading \(how a 3-ply abstention is read: an older lexcase took a ply or reply whose first or last line began "terminate" in any case/,
    );
    expect(configOf()).toMatchObject({ config: { terminateReading: TERMINATE_READING }, resumes: [{ unchecked: ['terminateReading'] }] });
  });

  it('an old ACAL run without passageChars (700 then): resumes with a warning at 700, and is refused with another length', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 3);
    const cfg = (limit: number, passageChars: number) => ({
      system: 'acal/acal',
      task: 'hearsay',
      limit,
      k: 5,
      evidenceQuery: 'hearsay {text}',
      passageChars,
      model: MODEL,
    });
    await resume(val.slice(0, 1), cfg(1, 700));
    const old = configOf();
    delete old.config.passageChars;
    writeFileSync(join(dir, 'config.json'), JSON.stringify(old));
    const lines = readFileSync(join(dir, 'results.jsonl'), 'utf8');
    await expect(resume(val, cfg(3, 1200))).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(
        /field "passageChars" differs: passageChars \(unset\) recorded, 1200 now; an older lexcase, which did not record it, showed 700 characters of each passage\); use a new run dir/,
      ),
    });
    expect(readFileSync(join(dir, 'results.jsonl'), 'utf8')).toBe(lines);
    const { stderr } = await resume(val.slice(0, 2), cfg(2, 700));
    expect(stderr).toMatch(/does not record passageChars \(the characters of each evidence passage a prompt shows\)/);
    expect(configOf()).toMatchObject({ config: { passageChars: 700 }, resumes: [{ unchecked: ['passageChars'] }] });
  });

  it('an old run dir without seedDerivation (its draws depended only on the seed being odd or even): resumes with a warning naming it and records it; another recorded derivation is refused', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 4);
    const cfg = (limit: number) => ({ system: 'emar', dataset: 'barexam', split: 'val', limit, model: MODEL });
    await resume(val.slice(0, 2), cfg(2));
    expect(configOf().config.seedDerivation).toBe(SEED_DERIVATION);
    const old = configOf();
    delete old.config.seedDerivation;
    writeFileSync(join(dir, 'config.json'), JSON.stringify(old));

    const { stderr } = await resume(val.slice(0, 3), cfg(3));
    expect(stderr).toMatch(
      /\[warn\] .*config\.json was written by an older lexcase and does not record seedDerivation \(how the items' seeded draws follow from the seed: an older lexcase drew them with FNV-1a alone .*drawn otherwise than the earlier ones\)/,
    );
    expect(configOf()).toMatchObject({ config: { seedDerivation: SEED_DERIVATION }, resumes: [{ unchecked: ['seedDerivation'] }] });

    // a run dir that recorded another derivation: refused, results.jsonl untouched
    const other = configOf();
    other.config.seedDerivation = 'fnv1a-v0';
    writeFileSync(join(dir, 'config.json'), JSON.stringify(other));
    const lines = readFileSync(join(dir, 'results.jsonl'), 'utf8');
    await expect(resume(val, cfg(4))).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(/field "seedDerivation" differs: seedDerivation "fnv1a-v0" recorded, "fnv1a-fmix32" now\); use a new run dir/),
    });
    expect(readFileSync(join(dir, 'results.jsonl'), 'utf8')).toBe(lines);
  });
});

describe('a reproduce dense or hybrid run dir from before the dense search settings were recorded', () => {
  const query = { rule: 'whole', text: 'the whole query is embedded' };
  const dense = (search?: Record<string, unknown>) => ({
    system: 'retrieval',
    method: 'dense',
    retriever: { embedder: 'transformers:tiny-bert', query, ...(search ? { search } : {}) },
  });
  it('takes retriever.search as unknown (the same hits), and refuses a recorded one that differs', async () => {
    const { compareRecordedConfig } = await import('./resume-compare.js');
    const same = compareRecordedConfig(dense(), dense({ type: 'ivf_flat', nprobes: 8 }), (c) => c);
    expect(same.difference).toBeUndefined();
    expect(same.unrecorded.map((u) => u.key)).toEqual(['retriever.search']);
    const hybrid = (search?: Record<string, unknown>) => ({
      system: 'retrieval',
      method: 'hybrid',
      retriever: { fusion: 'rrf', components: { dense: { embedder: 'transformers:tiny-bert', query, ...(search ? { search } : {}) } } },
    });
    expect(compareRecordedConfig(hybrid(), hybrid({ type: 'exact', annIndex: 'ivf_flat' }), (c) => c).unrecorded.map((u) => u.key)).toEqual([
      'retriever.components.dense.search',
    ]);
    expect(compareRecordedConfig(dense({ type: 'ivf_flat', nprobes: 3 }), dense({ type: 'ivf_flat', nprobes: 8 }), (c) => c).difference).toContain('retriever');
  });

  it('refuses a hybrid run dir whose fused scores an older lexcase rounded to 6 decimals (no retriever.scoreDigits), saying why', async () => {
    const { compareRecordedConfig } = await import('./resume-compare.js');
    const hybrid = (scoreDigits?: number) => ({
      system: 'retrieval',
      method: 'hybrid',
      retriever: { fusion: 'rrf', methods: ['bm25', 'qld'], depth: 1000, ...(scoreDigits ? { scoreDigits } : {}) },
    });
    const old = compareRecordedConfig(hybrid(), hybrid(10), (c) => c);
    expect(old.unrecorded).toEqual([]);
    expect(old.difference).toMatch(/retriever\.scoreDigits.*fused scores rounded to 6 decimals.*now 10 significant digits/);
    expect(compareRecordedConfig(hybrid(10), hybrid(10), (c) => c).difference).toBeUndefined();
  });
});

// the readings of core/llm/named-answer.ts come from one registry (core/llm/named-answer-readings.ts): each older value
// recorded resumes with "records an older …", the current one with no word, and an unknown one is still a difference
describe('the named-answer readings registry', () => {
  it.each(Object.values(NAMED_ANSWER_READINGS).flatMap((r) => r.older.map((o) => [r.name, o.until, o.value] as const)))(
    '%s recorded until %s resumes as an older value',
    (name, _until, value) => {
      const current = NAMED_ANSWER_READINGS[name as keyof typeof NAMED_ANSWER_READINGS].current;
      const { unrecorded, config } = withUnrecorded({ system: 'baseline', [name]: value }, { system: 'baseline', [name]: current });
      expect(unrecorded).toEqual([expect.objectContaining({ key: name, older: true })]);
      expect(config[name]).toBe(current);
      expect(withUnrecorded({ system: 'baseline', [name]: current }, { system: 'baseline', [name]: current }).unrecorded).toEqual([]);
      expect(withUnrecorded({ system: 'baseline', [name]: 'another' }, { system: 'baseline', [name]: current }).unrecorded).toEqual([]);
    },
  );
});

describe('every recorded reading in the registries is checked on resume', () => {
  // core/llm/named-answer-readings.ts and core/recorded-readings.ts: a reading whose current value moves to `older`
  // resumes with "records an older …", never a refusal, never silence, whichever registry it is in
  const readings = [...Object.values(NAMED_ANSWER_READINGS), ...Object.values(RECORDED_READINGS)];
  it.each(readings.flatMap((r) => r.older.map((o) => [r.name, o.until, o.value, r.current] as const)))(
    '%s recorded until %s resumes with "records an older" it',
    (name, _until, older, current) => {
      const now = { system: 'case', [name]: current };
      const { unrecorded, config } = withUnrecorded({ ...now, [name]: older }, now);
      expect(unrecorded).toEqual([expect.objectContaining({ key: name, older: true })]);
      expect(config[name]).toBe(current);
    },
  );
  it('the three moved readings are the values the systems record', () => {
    expect([REPLY_READING, PASSAGE_HANDLE_READING, FACTOR_MENTION_READING]).toEqual([
      RECORDED_READINGS.replyReading.current,
      RECORDED_READINGS.passageHandleReading.current,
      RECORDED_READINGS.factorMentionReading.current,
    ]);
  });
});
