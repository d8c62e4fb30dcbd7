/**
 * The LLM exchanges of a run dir (core/llm/record-replay.ts), written by the runner:
 *
 *   <runDir>/llm/model.json        the model settings the run was made with (no key, no endpoint)
 *   <runDir>/llm/<item>.jsonl      every exchange of the item, in order: request, reply or error
 *
 * Redacted like every file lexcase writes (core/redact-value.ts): credential fields and registered
 * secrets are masked; request headers (the API key) are never recorded at all.
 *
 * This is the only layout of LLM exchanges: the replay reads it (`readExchanges`), and the
 * explorer's LLM-call inspector reads the same files as calls (`readInspectorCalls`: stage, prompt
 * messages, reply, tool calls, the call's error, latency, tokens, cache hit).
 * `replayInfo` reads what a replay of the dir needs besides the exchanges: the recorded config
 * (a replay must be made with the same flags) and each item's recorded line of results.jsonl.
 *
 * Each line is written with the content hashes of its request and reply (`exchangeHashes`, over the
 * redacted exchange as written); `readExchanges` recomputes them and refuses a line edited since
 * (LLM_RECORDING_ALTERED, naming the file and line), and a line written without them (a recording
 * of an older lexcase: record it again). `replayInfo` checks every file of the dir before a replay
 * runs anything. Each item's results.jsonl line records the digest of the file written with it
 * (`exchangesDigest`, `exchangesSha256`): the runner refuses to serve an item from another attempt's
 * file (`exchangesDigestMismatch`).
 */
import { createHash } from 'node:crypto';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { readRegularFile } from '../core/read-regular.js';
import { join } from 'node:path';
import { errors } from '../core/errors.js';
import { jsonLine } from '../core/jsonl.js';
import { exchangeHashes, type Exchange } from '../core/llm/record-replay.js';
import { redactValue } from '../core/redact-value.js';
import { itemFileToRead, legacyTraceFileName, readConfig, readResults, readRunFile, traceFileName, writeJsonAtomic } from './run-dir.js';
import type { ResultRecord } from './types.js';
import { dataFilesComparable, deepDifferences } from './resume-config.js';
import { withUnrecorded } from './resume-unrecorded.js';
import { withCanonicalSystem } from './systems.js';

export const exchangesDir = (runDir: string) => join(runDir, 'llm');
const jsonl = (name: string) => name.replace(/\.json$/, '.jsonl');
/** Where item `id`'s exchanges are written (its trace's name, `.jsonl`). */
export const exchangesPath = (runDir: string, id: string) => join(exchangesDir(runDir), jsonl(traceFileName(id)));
/** Where item `id`'s exchanges are read: exchangesPath, or an older run dir's name for it (itemFileToRead). */
export const exchangesReadPath = (runDir: string, id: string) => {
  const legacy = legacyTraceFileName(id);
  return itemFileToRead(exchangesDir(runDir), jsonl(traceFileName(id)), legacy && jsonl(legacy));
};
export const modelSettingsPath = (runDir: string) => join(exchangesDir(runDir), 'model.json');

/** Item `id`'s exchanges, as a temp file renamed into place (a full disk leaves no empty temp file). */
export async function writeExchanges(runDir: string, id: string, exchanges: Exchange[]): Promise<void> {
  (await stageExchanges(runDir, id, exchanges)).commit();
}

/** Exchanges written to their temp file, not yet in place: `commit` renames them over llm/<item>.jsonl, `drop` removes them. */
export interface StagedExchanges {
  commit(): void;
  drop(): void;
  /** exchangesDigest of the exchanges as written: the item's results.jsonl line records it (`exchangesSha256`). */
  digest: string;
}

/**
 * The digest of an item's exchanges as written (results.jsonl `exchangesSha256`): sha256 over each
 * line's request key and reply hash (`hash.reply`: the reply with its usage, the error, the
 * cache-hit and cut-off flags), one `key:reply` per line, sorted — what a replay serves, each
 * request's answer, and nothing it derives again (stage, latency, the order concurrent calls were
 * listed in). Another attempt's file or another run's with the same requests has other replies, so
 * another digest: a replay compares it with its line's before it serves the item.
 */
export function exchangesDigest(exchanges: readonly Exchange[]): string {
  const parts = exchanges.map((x) => `${x.key}:${x.hash?.reply ?? exchangeHashes(x).reply}\n`).sort();
  return createHash('sha256').update(parts.join('')).digest('hex');
}

/**
 * Item `id`'s exchanges written to a temp file (`llm/<item>.jsonl.tmp-<pid>`), put in place only by
 * `commit`, which the runner calls in the write of the item's results.jsonl line: a retried item whose
 * new attempt gets no line (a full disk at its trace or line, a signal, a kill) keeps the earlier
 * attempt's llm/<item>.jsonl, the exchanges of the line that stays. A failed write leaves no temp file;
 * one a kill leaves is removed at the next start (run-dir.ts removeStaleTemps).
 */
export async function stageExchanges(runDir: string, id: string, exchanges: Exchange[]): Promise<StagedExchanges> {
  await mkdir(exchangesDir(runDir), { recursive: true });
  const file = exchangesPath(runDir, id);
  const tmp = `${file}.tmp-${process.pid}`;
  const written = exchanges.map(withHashes);
  try {
    await writeFile(tmp, written.map((x) => jsonLine(x)).join(''));
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  return { commit: () => renameSync(tmp, file), drop: () => rmSync(tmp, { force: true }), digest: exchangesDigest(written) };
}

/** The exchange as written: redacted, with the hashes of what the line holds. */
function withHashes(x: Exchange): Exchange {
  const { hash: _old, ...rest } = x;
  const written = JSON.parse(JSON.stringify(redactValue(rest))) as Exchange;
  return { ...written, hash: exchangeHashes(written) };
}

const RERECORD = 'a replay serves only what the model answered: restore the file as it was recorded, or record the run again';

/** Throws LLM_RECORDING_ALTERED unless line `line` of `file` holds the hashes of its own request and reply. */
function checkHashes(x: Exchange, file: string, line: number): void {
  if (!x.hash || typeof x.hash.request !== 'string' || typeof x.hash.reply !== 'string')
    throw errors.llmRecordingAltered(
      file,
      line,
      'this exchange has no content hash (recorded by a lexcase older than the replay check), so an edit could not be told apart',
      'record the run again with this version of lexcase, then replay that',
    );
  const now = exchangeHashes(x);
  if (now.reply !== x.hash.reply)
    throw errors.llmRecordingAltered(
      file,
      line,
      'the recorded reply (its text, tool calls, usage, error or cache flag) differs from the one written at recording: the file was edited',
      RERECORD,
    );
  if (now.request !== x.hash.request)
    throw errors.llmRecordingAltered(
      file,
      line,
      'the recorded request (its messages, parameters or key) differs from the one written at recording: the file was edited',
      RERECORD,
    );
}

/** The recorded exchanges of item `id` (none: an empty list), each checked against its hashes. */
/**
 * Why item `record.id`'s recorded exchanges are not those of its results.jsonl line, or undefined: the requests
 * refused, cut off and sent again that the line counts (the runner counts them from the very exchanges it writes)
 * differ from those `exchanges` hold, or the line counts calls and there is no exchange. A run killed after writing
 * the line and before putting llm/<id>.jsonl in place leaves the earlier attempt's file (a retry) or none; a replay
 * served from it would give the item another outcome than its line, exit 0 (before: a failed item where the
 * recording had a correct one, said only as token counts "a lexcase that read usage otherwise").
 */
export function exchangesLineMismatch(exchanges: readonly Exchange[], record: ResultRecord): string | undefined {
  const t = record.tokens;
  if (!t) return undefined;
  if (!exchanges.length) return t.calls ? `its results.jsonl line counts ${t.calls} LLM calls and the file holds no exchange` : undefined;
  const held = {
    refused: exchanges.filter((x) => x.error && !x.abandoned).length,
    'cut off': exchanges.filter((x) => x.abandoned && !x.unsent).length,
    'sent again': exchanges.reduce((n, x) => n + (x.retries ?? 0), 0),
  };
  const line = { refused: t.refused ?? 0, 'cut off': t.abandoned ?? 0, 'sent again': t.retried };
  const diff = (Object.keys(held) as (keyof typeof held)[])
    .filter((k) => line[k] !== undefined && line[k] !== held[k])
    .map((k) => `${k} ${line[k]} in the line, ${held[k]} in the file`);
  return diff.length ? `its requests are not those its results.jsonl line counts (${diff.join('; ')})` : undefined;
}

/**
 * The digests of item `record.id`'s exchanges when they are not those its results.jsonl line recorded
 * (`exchangesSha256`, written with the line): `{ line, file }`, or undefined when they are the same or
 * the line records none (a recording of an older lexcase: `ReplayInfo.undigested`). The counts
 * `exchangesLineMismatch` compares are the same for another attempt of the item whose replies differ
 * (a retry answered otherwise, a file of another run dir of the same flags): before, a replay of such a
 * file exited 0 with that attempt's answers in place of the recorded line's.
 */
export function exchangesDigestMismatch(exchanges: readonly Exchange[], record: ResultRecord): { line: string; file: string } | undefined {
  if (typeof record.exchangesSha256 !== 'string') return undefined;
  const file = exchangesDigest(exchanges);
  return file === record.exchangesSha256 ? undefined : { line: record.exchangesSha256, file };
}

/**
 * Throws LLM_RECORDING_ALTERED unless `exchanges` (read from recording `dir`) are those of item `record.id`'s
 * results.jsonl line: the counts its line records (exchangesLineMismatch), then the digest (exchangesDigestMismatch).
 */
export function assertLineExchanges(dir: string, record: ResultRecord, exchanges: readonly Exchange[]): void {
  const other = exchangesLineMismatch(exchanges, record);
  if (other)
    throw errors.llmRecordingAltered(
      exchangesPath(dir, record.id),
      1,
      `${other}: another attempt's exchanges than the recorded line's (a run killed between writing the line and this file?), so a replay cannot reproduce item ${JSON.stringify(record.id)}`,
      'replay a run whose llm/ files are whole, or record the run again',
    );
  // the same counts, other replies (another attempt's, another run's): the digest written with the line
  const digests = exchangesDigestMismatch(exchanges, record);
  if (digests) throw errors.llmRecordingOtherExchanges(exchangesReadPath(dir, record.id), record.id, digests.line, digests.file);
}

export async function readExchanges(runDir: string, id: string): Promise<Exchange[]> {
  const file = exchangesReadPath(runDir, id);
  if (!existsSync(file)) return [];
  return readExchangeFile(runDir, file);
}

/** A FIFO, socket or device in the recording is refused (RUN_INVALID), never waited on (readRunFile). */
async function readExchangeFile(runDir: string, file: string): Promise<Exchange[]> {
  const lines = (await readRunFile(runDir, file)).split('\n');
  return lines.flatMap((l, i) => {
    if (!l.trim()) return [];
    let x: Exchange;
    try {
      x = JSON.parse(l) as Exchange;
    } catch (e) {
      throw errors.fileParse(file, i + 1, `not a JSON exchange: ${(e as Error).message}`);
    }
    checkHashes(x, file, i + 1);
    return [x];
  });
}

/** Check every exchange file of a recording (before a replay runs anything); throws on the first altered line. */
export async function verifyExchanges(runDir: string): Promise<void> {
  const dir = exchangesDir(runDir);
  const files = existsSync(dir) ? (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort() : [];
  for (const f of files) await readExchangeFile(runDir, join(dir, f));
}

export async function writeModelSettings(runDir: string, settings: Record<string, unknown>): Promise<void> {
  await mkdir(exchangesDir(runDir), { recursive: true });
  await writeJsonAtomic(modelSettingsPath(runDir), redactValue(settings));
}

/** The model settings a run was recorded with; throws RUN_INVALID when the dir holds no recording. */
export async function readModelSettings(runDir: string): Promise<Record<string, unknown>> {
  const file = modelSettingsPath(runDir);
  if (!existsSync(file))
    throw errors.runInvalid(runDir, `holds no LLM recording (${file} is missing): only runs made with an LLM by this version of lexcase can be replayed`);
  const text = await readRunFile(runDir, file);
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (e) {
    throw errors.fileParse(file, undefined, `not valid JSON: ${(e as Error).message}`);
  }
}

export interface ReplayInfo {
  dir: string;
  /** The recorded results.jsonl lines by item id, and their order. */
  recorded: Map<string, ResultRecord>;
  order: string[];
  /**
   * Items whose line records no `exchangesSha256` though the item asked the LLM (a recording made by a
   * lexcase before the digest): their exchanges are checked against the line's counts only.
   */
  undigested: string[];
}

/** Items of `records` that asked the LLM (their line counts calls, or `dir` holds exchanges of them) and whose line records no digest. */
function undigestedItems(dir: string, records: readonly ResultRecord[]): string[] {
  return records
    .filter((r) => typeof r.exchangesSha256 !== 'string' && ((r.tokens?.calls ?? 0) > 0 || existsSync(exchangesReadPath(dir, r.id))))
    .map((r) => r.id);
}

/** The warning of a replay whose recording's lines record no exchange digest for `ids`: once, on stderr and in report.md. */
export function undigestedText(dir: string, ids: readonly string[], items: number): string {
  const shown = ids.slice(0, 3).join(', ');
  const more = ids.length > 3 ? ` and ${ids.length - 3} more` : '';
  return `the recording ${dir} records no digest of the LLM exchanges for ${ids.length} of ${items} items (${shown}${more}; results.jsonl "exchangesSha256", written by lexcase since 2026-12-03): their llm/ files are checked against the lines' request counts only, so another attempt's exchanges with the same counts would replay unnoticed`;
}

/**
 * Config fields a replay may differ in: the model, a local model's identity (`local`: a replay needs
 * no model file), where the sampling settings came from (a replay takes all three from the
 * recording), the index path, and the resamples of the run's own report (`bootstrap`, run acal
 * --iterations: no result depends on them; a run recorded before had none).
 */
const MAY_DIFFER = new Set(['model', 'local', 'index', 'sampling', 'bootstrap']);
/** What a replay of a system of the caller's own may differ in: the model (a replay answers from the recording); its other fields are its own. */
const OWN_MAY_DIFFER = new Set(['model']);

const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, val) =>
    val && typeof val === 'object' && !Array.isArray(val) ? Object.fromEntries(Object.entries(val).sort(([a], [b]) => a.localeCompare(b, 'en'))) : val,
  );

/**
 * What a replay of `dir` needs; throws LLM_RECORDING_ALTERED when an item's exchanges are not those of
 * its results.jsonl line (assertLineExchanges), RUN_INVALID when the run being made differs from the
 * recorded one in seed, seed derivation (even where the recording's lexcase did not record it) or
 * config (other than the model and the index path), and
 * LLM_RECORDING_ALTERED when a recorded exchange was edited (`verifyExchanges`).
 * `o.lexcaseSystem`: the lexcase system the replay runs (null: a system of the caller's own;
 * undefined: not known, taken as lexcase's). The rules for lexcase's own fields — a field an older
 * lexcase did not record, `dataFiles` by checksum, `prompts` as an older prompt version, the fields a
 * replay may differ in — apply only to a recording of a lexcase system, as a resume's do
 * (eval/resume-compare.ts): as the recording records its writer (`provenance.lexcaseSystem`), else
 * (a dir from before that record) as the replay's. A system of your own compares its fields as they are.
 */
export async function replayInfo(dir: string, config: Record<string, unknown>, seed: number, o: { lexcaseSystem?: string | null } = {}): Promise<ReplayInfo> {
  await readModelSettings(dir);
  await verifyExchanges(dir);
  await assertReplaysRecording(dir, config, seed, o);
  const { records } = await readResults(dir);
  // every item's exchanges against its line, before anything is replayed (the runner checks each again as it serves it)
  for (const r of records) assertLineExchanges(dir, r, await readExchanges(dir, r.id));
  const recorded = new Map(records.map((r) => [r.id, r]));
  return { dir, recorded, order: records.map((r) => r.id), undigested: undigestedItems(dir, records) };
}

/**
 * Throws RUN_INVALID when the run being made differs from the one recorded in `dir` in seed, seed
 * derivation or config, by replayInfo's rules: the check of every replay, a run with a model (above)
 * or without one (a retrieval or trec cell of `lexcase reproduce --replay`, eval/runner.ts `replayOf`).
 */
export async function assertReplaysRecording(
  dir: string,
  config: Record<string, unknown>,
  seed: number,
  o: { lexcaseSystem?: string | null } = {},
): Promise<void> {
  const rec = (await readConfig(dir)) as
    | { seed?: number; config?: Record<string, unknown>; provenance?: { gitSha?: string; lexcaseVersion?: string; lexcaseSystem?: string | null } }
    | undefined;
  if (!rec) throw errors.runInvalid(dir, 'has no config.json: not a run dir');
  if (rec.seed !== seed) throw errors.runInvalid(dir, `was recorded with seed ${rec.seed}; replay it with --seed ${rec.seed}`);
  // an older lexcase drew the items' orders and tie-breaks otherwise from the same seed: a replay would not reproduce them
  if (rec.config?.seedDerivation !== config.seedDerivation)
    throw errors.runInvalid(
      dir,
      `was recorded with seed derivation ${String(rec.config?.seedDerivation ?? "FNV-1a alone (an older lexcase's, unrecorded)")}, this lexcase draws with ${String(config.seedDerivation)}: its presentation orders and tie-breaks differ for the same seed, so a replay would not reproduce the run; replay it with the lexcase version that recorded it (config.json provenance.gitSha)`,
    );
  // an old run's system name (`acal-cot`, `baseline` + mode) is the same system as today's (`acal/cot`, `baseline/<mode>`)
  // a field the recording's lexcase did not record yet (resume-unrecorded.ts) is not a difference
  const writer = rec.provenance && 'lexcaseSystem' in rec.provenance ? rec.provenance.lexcaseSystem : o.lexcaseSystem;
  const lexcaseFields = writer !== null;
  const a = withCanonicalSystem(withUnrecorded(rec.config ?? {}, config, { lexcaseFields }).config);
  const b = withCanonicalSystem(config);
  const mayDiffer = lexcaseFields ? MAY_DIFFER : OWN_MAY_DIFFER;
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (mayDiffer.has(k) || stable(a[k]) === stable(b[k])) continue;
    // the data files read compare by their bytes' sha256, not where they were found (resume-config.ts dataFilesComparable)
    if (lexcaseFields && k === 'dataFiles' && stable(dataFilesComparable(a[k])) === stable(dataFilesComparable(b[k]))) continue;
    if (lexcaseFields && k === 'prompts') throw olderPrompts(dir, a, b, rec.provenance);
    throw errors.runInvalid(dir, `was recorded with ${replayDifference(k, a[k], b[k])}; replay it with the recorded run's flags`);
  }
}

/**
 * What differs in config field `k` between the recording (`was`) and the replay (`now`), each at its
 * deepest setting, at most 3 (then how many more): `indexContent.analyzer.stemmer = "porter", this
 * replay has "none"`. Before, a field holding an object was printed whole on both sides (an index's
 * content: its corpus, checksum, passage count and every analyzer setting, twice).
 */
function replayDifference(k: string, was: unknown, now: unknown): string {
  const diffs = deepDifferences(was, now, k);
  const shown = diffs.slice(0, 3).map((d) => `${d.path} = ${stable(d.before) ?? '(unset)'}, this replay has ${stable(d.after) ?? '(unset)'}`);
  return `${shown.join('; ')}${diffs.length > 3 ? `; and ${diffs.length - 3} more` : ''}`;
}

/**
 * The refusal of a replay whose recorded prompts (config.json `prompts`, eval/request-fingerprint.ts)
 * are not this lexcase's: the recorded replies answer other prompts, so no flag makes them replay —
 * the run was recorded with an older prompt version of its system; a fresh run (`lexcase run …`, the
 * command that made it, without --replay) is what this version can make. Before, the refusal said
 * "replay it with the recorded run's flags", which the run already had.
 */
function olderPrompts(
  dir: string,
  recorded: Record<string, unknown>,
  now: Record<string, unknown>,
  prov: { gitSha?: string; lexcaseVersion?: string } | undefined,
): Error {
  const system = typeof now.system === 'string' ? now.system : typeof recorded.system === 'string' ? recorded.system : 'this system';
  const fp = (v: unknown) => (v && typeof v === 'object' ? (v as { sha256?: unknown; parts?: Record<string, unknown> }) : {});
  const [was, is] = [fp(recorded.prompts), fp(now.prompts)];
  const parts = [...new Set([...Object.keys(was.parts ?? {}), ...Object.keys(is.parts ?? {})])].filter((p) => was.parts?.[p] !== is.parts?.[p]).sort();
  const short = (v: unknown) => (typeof v === 'string' ? v.slice(0, 12) : '(unset)');
  const by = [prov?.lexcaseVersion ? `lexcase ${prov.lexcaseVersion}` : undefined, prov?.gitSha ? `git sha ${prov.gitSha.slice(0, 12)}` : undefined].filter(
    Boolean,
  );
  const command = `lexcase run ${system.split('/')[0]} …`;
  return errors.runInvalid(
    dir,
    `was recorded with an older prompt version of ${system} (prompts ${short(was.sha256)}${by.length ? `, recorded by ${by.join(', ')}` : ''}; this lexcase's are ${short(is.sha256)}${parts.length ? `, ${parts.length === 1 ? 'part' : 'parts'} ${parts.join(', ')} changed` : ''}): its recorded replies answer other prompts, so it cannot be replayed with this version; re-run with \`${command}\` (the recorded command, without --replay) into a new run dir to get a fresh run`,
  );
}

/** One LLM call as the explorer's inspector shows it (derived from a recorded Exchange). */
export interface LlmExchange {
  stage: string;
  messages: { role: string; content: string }[];
  reply: string | null;
  toolCalls?: { name: string; args: unknown }[];
  /** The request's failure, or why its reply was refused (parse or schema validation). */
  error?: string;
  ms?: number;
  /** Wait for a concurrency slot before the first attempt (not in `ms`; record-replay.ts). */
  queuedMs?: number;
  /** Failed attempts sent again before the last (record-replay.ts `retries`): their usage is in no total. */
  retries?: number;
  tokens?: { input?: number; output?: number; total?: number };
  cached?: boolean;
  at?: string;
  /** Still in flight when its item ended: cut off, no reply (record-replay.ts `abandoned`). */
  abandoned?: true;
  /** Of an abandoned call: it was still waiting for its concurrency slot, never sent (record-replay.ts `unsent`). */
  unsent?: true;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const obj = (v: unknown): Record<string, any> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, any>) : {});

/** A wire message's text: string content, text parts, and the tool calls of an assistant turn. */
function messageText(m: Record<string, any>): string {
  const c = m.content;
  const text = typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => (typeof p === 'string' ? p : str(obj(p).text ?? p))).join('') : str(c);
  const calls = Array.isArray(m.tool_calls)
    ? m.tool_calls.map((t: unknown) => `→ ${str(obj(obj(t).function).name)}(${str(obj(obj(t).function).arguments)})`)
    : [];
  return [text, ...calls].filter(Boolean).join('\n');
}

/** The step a request came from when it did not name itself: its schema's name, its tools, or its system prompt's start. */
export function stageOfRequest(request: unknown): string {
  const r = obj(request);
  const p = obj(r.params);
  const schema = obj(obj(p.response_format).json_schema).name;
  if (typeof schema === 'string' && schema) return schema.replace(/_/g, ' ');
  const forced = obj(obj(p.tool_choice).function).name;
  if (typeof forced === 'string' && forced) return forced.replace(/_/g, ' ');
  if (Array.isArray(p.tools) && p.tools.length) return `tool loop (${p.tools.map((t: unknown) => str(obj(obj(t).function).name)).join(', ')})`;
  const sys = Array.isArray(r.messages) ? r.messages.find((m: unknown) => obj(m).role === 'system') : undefined;
  const head = sys ? messageText(obj(sys)).split('\n')[0].trim() : '';
  return head ? (head.length > 60 ? `${head.slice(0, 59)}…` : head) : 'chat';
}

/** The inspector's view of one recorded exchange. */
export function inspectorCall(x: Exchange): LlmExchange {
  const g = obj(x.reply?.generations?.[0]);
  const msg = obj(g.message);
  const tu = obj(x.reply?.llmOutput?.tokenUsage);
  const um = obj(msg.usage_metadata);
  const input = num(tu.promptTokens) ?? num(um.input_tokens);
  const output = num(tu.completionTokens) ?? num(um.output_tokens);
  const total = num(tu.totalTokens) ?? num(um.total_tokens) ?? (input !== undefined || output !== undefined ? (input ?? 0) + (output ?? 0) : undefined);
  const toolCalls =
    Array.isArray(msg.tool_calls) && msg.tool_calls.length ? msg.tool_calls.map((c: unknown) => ({ name: str(obj(c).name), args: obj(c).args })) : undefined;
  const replyText = x.reply ? str(g.text ?? msg.content) : '';
  const error = x.error ? (x.error.code ? `${x.error.code}: ${x.error.message}` : x.error.message) : x.invalid ? `reply refused: ${x.invalid}` : undefined;
  return {
    stage: x.stage || stageOfRequest(x.request),
    messages: Array.isArray(x.request?.messages)
      ? (x.request.messages as unknown[]).map((m) => ({ role: str(obj(m).role) || '?', content: messageText(obj(m)) }))
      : [],
    reply: x.reply ? replyText : null,
    ...(toolCalls ? { toolCalls } : {}),
    ...(error ? { error } : {}),
    ...(num(x.ms) !== undefined ? { ms: x.ms } : {}),
    ...(num(x.queuedMs) !== undefined ? { queuedMs: x.queuedMs } : {}),
    ...(num(x.retries) ? { retries: x.retries } : {}),
    ...(x.cached ? { tokens: { input: 0, output: 0, total: 0 } } : total !== undefined ? { tokens: { input, output, total } } : {}),
    ...(x.cached ? { cached: true } : {}),
    ...(x.at ? { at: x.at } : {}),
    ...(x.abandoned ? { abandoned: true as const } : {}),
    ...(x.abandoned && (x as { unsent?: unknown }).unsent === true ? { unsent: true as const } : {}),
  };
}

/** Parse an exchanges file's text for the inspector: the calls, and a note per unreadable line (1-based), never a throw. */
export function parseInspectorCalls(body: string): { exchanges: LlmExchange[]; problems: string[] } {
  const exchanges: LlmExchange[] = [];
  const problems: string[] = [];
  body.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch (e) {
      problems.push(`unreadable exchange line ${i + 1}: not JSON (${(e as Error).message})`);
      return;
    }
    if (!o || typeof o !== 'object' || Array.isArray(o) || !('request' in o)) {
      problems.push(`unreadable exchange line ${i + 1}: not a recorded exchange (no "request")`);
      return;
    }
    exchanges.push(inspectorCall(o as Exchange));
  });
  return { exchanges, problems };
}

/** The item's recorded calls for the inspector, or undefined when the run recorded none for it. */
export async function readInspectorCalls(runDir: string, id: string): Promise<{ exchanges: LlmExchange[]; problems: string[] } | undefined> {
  const f = exchangesReadPath(runDir, id);
  if (!existsSync(f)) return undefined;
  return parseInspectorCalls(await readRegularFile(f)); // a FIFO here is ENOTREGULAR, never a blocked read
}
