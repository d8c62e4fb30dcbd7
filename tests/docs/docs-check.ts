/**
 * The docs check: every shell block in README.md and docs/**\/*.md runs, as a user runs it, against
 * the PACKED TARBALL installed into an empty project. Contributor's guide: docs/docs-check.md.
 *
 *   npm run docs:check [-- --tarball lexcase-0.1.0.tgz] [--only docs/eval.md] [--list] [--keep]
 *
 * What it does:
 *  1. packs the repository (`npm pack`) unless --tarball is given, and installs the tarball into an
 *     empty project (`npm init -y && npm install <tgz>`) unless --consumer names one;
 *  2. starts the scripted OpenAI-compatible server (tests/support/scripted-openai-server.ts, answering
 *     every lexcase system: tests/support/scripted-all.ts) on 127.0.0.1 and points
 *     LEXCASE_LLM_BASE_URL / LEXCASE_LLM_MODEL / LEXCASE_LLM_API_KEY at it; a command's
 *     `http://localhost:8000/v1` (the docs' example endpoint) is rewritten to it;
 *  3. per Markdown file, a fresh work dir holding the "your own files" the docs name (fixtures:
 *     my-passages.jsonl, pool.{jsonl,jsonl.gz,tsv,parquet}, data/, queries.tsv, qrels.txt), with
 *     the consumer's node_modules/.bin on PATH, so `npx lexcase …` and `lexcase …` both run the
 *     installed package; blocks run in document order, commands one by one, `export`s and `cd`s
 *     carry over within the file. Repository commands (`npm run …`, `npm test`, `node dist/…`) run
 *     in the repository checkout; `npm install lexcase` installs the tarball; `lexcase serve` and
 *     `lexcase mcp --http` are started on a free port (`--port 0`), probed once (the explorer's page,
 *     the API's OpenAPI document, an MCP initialize) and stopped; `lexcase mcp` over stdio gets an
 *     empty stdin, so it starts, sees the client gone and exits;
 *  4. fails a command that exits non-zero, prints a stack trace, or (```console blocks) prints other
 *     than the output shown under it; fails an untagged block that holds commands (tag it ```bash
 *     to run it, ```text for a synopsis), a marker that is malformed or not above a block;
 *  5. checks each ```text synopsis line `lexcase <command> … --flag …` against `lexcase <command>
 *     --help` (the command exists, every flag is one of its options);
 *  6. checks the figure regions (tests/docs/figures.ts) against this tarball and a demo run from it;
 *  7. with --recipes: `lexcase reproduce <id> --limit 2` of every recipe the installed package lists,
 *     against the scripted server.
 * Prints `docs: N blocks run, M skipped (marked), F failed` and exits 1 on any failure.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { scriptedAll } from '../support/scripted-all.js';
import { startScriptedServer, type ScriptedServer } from '../support/scripted-openai-server.js';
import { measureCaseTable3, REGIONS, type Facts } from './figures.js';
import { commandLines, fencedBlocks, figureRegions, matchLines, shellCommands, SHELL_LANGS, strayMarkers, type Block, type Command } from './markdown.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The docs' example LLM endpoint; commands get the scripted server's URL instead. */
export const EXAMPLE_ENDPOINT = 'http://localhost:8000/v1';
const STACK = /^\s+at (?:async )?(?:\S+ \()?(?:file:|node:|\/|[A-Za-z]:\\)\S*:\d+:\d+\)?\s*$/m;

/** README.md first, then docs/**\/*.md in path order. */
export function docFiles(root = ROOT): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(join(root, d), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name, 'en'))) {
      const p = `${d}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) out.push(p);
    }
  };
  if (existsSync(join(root, 'docs'))) walk('docs');
  return [...(existsSync(join(root, 'README.md')) ? ['README.md'] : []), ...out];
}

export type Kind = 'run' | 'skip' | 'synopsis' | 'other';

export interface Classified {
  block: Block;
  kind: Kind;
  /** Why the block is an error (untagged commands, bad marker). */
  error?: string;
}

export function classify(block: Block): Classified {
  if (block.marker?.kind === 'bad')
    return { block, kind: 'other', error: `malformed marker <!-- docs-check: ${block.marker.text} --> (write <!-- docs-check: skip (reason) -->)` };
  if (SHELL_LANGS.has(block.lang)) return { block, kind: block.marker?.kind === 'skip' ? 'skip' : 'run' };
  if (block.marker) return { block, kind: 'other', error: `a docs-check marker above a ${block.lang || 'untagged'} block (markers go above shell blocks)` };
  const cmds = commandLines(block.body);
  if (block.lang === '' && cmds.length)
    return {
      block,
      kind: 'other',
      error: `untagged block with commands (${JSON.stringify(cmds[0].trim())}): tag it \`\`\`bash to run it, or \`\`\`text for a synopsis`,
    };
  if (block.lang === 'text' && cmds.length) return { block, kind: 'synopsis' };
  return { block, kind: 'other' };
}

// ---------------------------------------------------------------------------------------------

interface Opts {
  tarball?: string;
  consumer?: string;
  work?: string;
  only: string[];
  list: boolean;
  keep: boolean;
  recipes: boolean;
  figures: boolean;
  timeout: number;
  /** Markdown files (and recipes) run side by side, each in its own work dir; output stays in document order. */
  jobs: number;
}

function parse(): Opts {
  const { values } = parseArgs({
    options: {
      tarball: { type: 'string' },
      consumer: { type: 'string' },
      work: { type: 'string' },
      only: { type: 'string', multiple: true },
      list: { type: 'boolean' },
      keep: { type: 'boolean' },
      recipes: { type: 'boolean' },
      'no-figures': { type: 'boolean' },
      timeout: { type: 'string' },
      jobs: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(
      'usage: npm run docs:check -- [--tarball TGZ] [--consumer DIR] [--work DIR] [--only FILE]… [--list] [--keep] [--recipes] [--no-figures] [--timeout SECONDS] [--jobs N]',
    );
    process.exit(0);
  }
  return {
    tarball: values.tarball && resolve(values.tarball),
    consumer: values.consumer && resolve(values.consumer),
    work: values.work && resolve(values.work),
    only: values.only ?? [],
    list: !!values.list,
    keep: !!values.keep,
    recipes: !!values.recipes,
    figures: !values['no-figures'],
    timeout: Number(values.timeout ?? 600),
    jobs: Math.max(1, Number(values.jobs ?? 2) || 1),
  };
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
  /** CPU seconds (user + system) of the processes the command ran, as bash's `times` counts them (absent for servers). */
  cpu?: number;
}

interface Shell {
  env: NodeJS.ProcessEnv;
  cwd: string;
}

function sh(cmd: string, args: string[], o: { cwd: string; env?: NodeJS.ProcessEnv }): string {
  const r = spawnSync(cmd, args, { cwd: o.cwd, env: o.env ?? process.env, encoding: 'utf8', maxBuffer: 256 << 20 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${o.cwd}) exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

let bashCalls = 0;

/**
 * `npx lexcase …` (or `npx --no lexcase …`) in the consumer project runs the bin npx would find,
 * node_modules/.bin/lexcase, without npm's npx launcher in front of it: 44 doc commands say `npx
 * lexcase`, and the launcher cost ~1.1 s CPU each (0.2 s for `lexcase --version` itself). The
 * package phase of .ci/run still runs the real `npx --no lexcase` from that project. Outside the
 * project (a block that cd's elsewhere), or for any other package, the real npx runs.
 */
export function npxShim(consumer: string): string {
  const dir = JSON.stringify(consumer);
  return [
    'npx() {',
    '  local a=("$@")',
    `  [ "\${a[0]}" = --no ] && a=("\${a[@]:1}")`,
    `  case "$PWD/" in ${dir}/*) if [ "\${a[0]}" = lexcase ] && [ -x ${dir}/node_modules/.bin/lexcase ]; then ${dir}/node_modules/.bin/lexcase "\${a[@]:1}"; return; fi ;; esac`,
    '  command npx "$@"',
    '}',
  ].join('\n');
}

/** What `exec npx lexcase` becomes in `dir`: the consumer's bin when `dir` is inside the consumer (as npxShim), else unchanged. */
function npxExec(dir: string): string | undefined {
  return consumerDir && `${resolve(dir)}/`.startsWith(`${consumerDir}/`) ? JSON.stringify(join(consumerDir, 'node_modules/.bin/lexcase')) : undefined;
}
let consumerDir = '';

/** The `npx` of the consumer project the blocks run in (npxShim); empty until main sets it. */
let prelude = '';

/** Run a bash script; the environment and directory it ends with are written beside it (files of its own: scripts run side by side). */
function runBash(script: string, state: Shell, timeoutS: number, stateDir: string): Promise<Outcome & { env?: NodeJS.ProcessEnv; cwd?: string }> {
  const n = ++bashCalls;
  const envFile = join(stateDir, `env-${n}`);
  const pwdFile = join(stateDir, `pwd-${n}`);
  const cpuFile = join(stateDir, `cpu-${n}`);
  rmSync(envFile, { force: true });
  const wrapped = `set -o pipefail\n${prelude}\n${script}\n__docs_rc=$?\nenv -0 > ${JSON.stringify(envFile)}\npwd > ${JSON.stringify(pwdFile)}\ntimes > ${JSON.stringify(cpuFile)}\nexit $__docs_rc\n`;
  const t0 = performance.now();
  return new Promise((done) => {
    const child = spawn('bash', ['-c', wrapped], { cwd: state.cwd, env: state.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
    }, timeoutS * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      let env: NodeJS.ProcessEnv | undefined;
      let cwd: string | undefined;
      if (existsSync(envFile)) {
        env = {};
        for (const kv of readFileSync(envFile, 'utf8').split('\0')) {
          const i = kv.indexOf('=');
          if (i > 0) env[kv.slice(0, i)] = kv.slice(i + 1);
        }
        cwd = readFileSync(pwdFile, 'utf8').trim();
      }
      const cpu = existsSync(cpuFile) ? childCpu(readFileSync(cpuFile, 'utf8')) : undefined;
      rmSync(envFile, { force: true });
      rmSync(pwdFile, { force: true });
      rmSync(cpuFile, { force: true });
      done({ code, stdout, stderr, ms: performance.now() - t0, timedOut, env, cwd, cpu });
    });
  });
}

/** The CPU seconds of a shell's children from its `times` output (second line: "0m1.234s 0m0.456s"). */
export function childCpu(times: string): number | undefined {
  const line = times.trim().split('\n')[1];
  const secs = [...(line ?? '').matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return secs.length === 2 ? secs[0] + secs[1] : undefined;
}

/** "  3.8s" and, where measured, " 2.1s CPU": a command's wall and CPU time for its ok/FAIL line. */
function took(r: Outcome): string {
  return `${(r.ms / 1000).toFixed(1).padStart(6)}s${r.cpu === undefined ? '         ' : ` ${r.cpu.toFixed(1).padStart(5)}s CPU`}`;
}

/** A command without its trailing `# comment` (a `#` outside quotes, after a space). */
export function stripComment(text: string): string {
  let q = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (q) {
      if (ch === '\\' && q === '"') i++;
      else if (ch === q) q = '';
    } else if (ch === '"' || ch === "'") q = ch;
    else if (ch === '#' && (i === 0 || /\s/.test(text[i - 1]))) return text.slice(0, i).trimEnd();
  }
  return text;
}

/** What kind of server a server command starts, and so how it is probed once it prints its URL. */
export function serverKind(text: string): 'explorer' | 'api' | 'mcp-http' {
  const t = stripComment(text);
  if (/(^|\s)(npx (--no )?)?lexcase mcp\b/.test(t)) return 'mcp-http';
  return /\s--api\b/.test(t) ? 'api' : 'explorer';
}

/**
 * A server command as the check runs it: on a free port (`--port N` becomes `--port 0`, none gets
 * `--port 0`: several engineers' checks share a machine), without its trailing comment.
 */
export function serverCommand(text: string): string {
  const bare = stripComment(text);
  return /--port\b/.test(bare) ? bare.replace(/--port(\s+|=)\d+/, '--port 0') : `${bare} --port 0`;
}

/** Leading `VAR=value` words of a command (a value may be `$(…)`, quoted, or one word). */
const ASSIGNMENTS = /^(?:[A-Za-z_]\w*=(?:\$\([^)]*\)|"[^"]*"|'[^']*'|\S*)\s+)*/;

/**
 * The bash line that starts a server command so that the server is the process the check signals:
 * `exec` after the command's own `VAR=value` words (`LEXCASE_API_TOKEN=$(…) npx lexcase serve …`),
 * with `npx lexcase` replaced by `bin` where given (npxExec).
 */
export function serverExecLine(cmd: string, bin?: string): string {
  const assigns = ASSIGNMENTS.exec(cmd)?.[0] ?? '';
  const rest = cmd.slice(assigns.length).replace(/^npx (--no )?lexcase\b/, (m) => bin ?? m);
  return `${assigns}exec ${rest}`;
}

/** The URL to probe in what a server printed: its loopback URL, or 127.0.0.1 for one bound to every interface (`--host 0.0.0.0`). */
export function probeUrl(printed: string): string | undefined {
  const m = /(https?:\/\/)(127\.0\.0\.1|0\.0\.0\.0)(:\d+)/.exec(printed);
  return m ? `${m[1]}127.0.0.1${m[3]}` : undefined;
}

/** One request that shows the server answers as the docs say: the explorer's page, the API's OpenAPI document, an MCP initialize. */
async function probe(kind: ReturnType<typeof serverKind>, base: string): Promise<string> {
  const origin = new URL(base).origin;
  const req: [string, RequestInit] =
    kind === 'explorer'
      ? [origin, {}]
      : kind === 'api'
        ? [`${origin}/v1/openapi.json`, {}]
        : [
            `${origin}/mcp`,
            {
              method: 'POST',
              headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
              body: JSON.stringify({
                jsonrpc: '2.0',
                id: 1,
                method: 'initialize',
                params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'docs-check', version: '1' } },
              }),
            },
          ];
  const res = await fetch(...req).catch((e: Error) => e);
  if (res instanceof Error) throw new Error(`${req[1].method ?? 'GET'} ${req[0]}: ${res.message}`);
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${req[1].method ?? 'GET'} ${req[0]}: HTTP ${res.status} ${body.slice(0, 200)}`);
  if (kind === 'api' && !/"openapi":\s*"3\.1/.test(body)) throw new Error(`GET ${req[0]}: not an OpenAPI 3.1 document`);
  if (kind === 'mcp-http' && !/"serverInfo"/.test(body)) throw new Error(`POST ${req[0]} (initialize): no serverInfo in the reply`);
  return `${req[1].method ?? 'GET'} ${req[0]} → 200, ${body.length} bytes`;
}

/** `lexcase serve …` / `lexcase mcp --http …`: start it on a free port, probe it once, stop it with SIGTERM. */
async function runServe(text: string, state: Shell, timeoutS: number): Promise<Outcome> {
  const cmd = serverCommand(text);
  const kind = serverKind(text);
  const t0 = performance.now();
  // `npx lexcase serve …`: the installed bin as npxShim runs it (exec: the server is the child that gets the signal)
  const child = spawn('bash', ['-c', `${prelude}\n${serverExecLine(cmd, npxExec(state.cwd))}`], {
    cwd: state.cwd,
    env: state.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((r) => child.on('close', (c, sig) => r(c ?? (sig === 'SIGTERM' && stopping ? 0 : 128))));
  let stopping = false;
  let problem = '';
  const deadline = Date.now() + timeoutS * 1000;
  let url: string | undefined;
  while (!url && Date.now() < deadline) {
    url = probeUrl(stdout);
    if (!url) {
      const early = await Promise.race([exited, new Promise((r) => setTimeout(() => r('wait'), 200))]);
      if (early !== 'wait')
        return {
          code: early as number | null,
          stdout,
          stderr: `${stderr}\n(the server exited before printing its URL)`,
          ms: performance.now() - t0,
          timedOut: false,
        };
    }
  }
  if (!url) problem = 'the server printed no URL in time';
  else {
    try {
      stdout += `\n(docs-check: ${await probe(kind, url)})`;
    } catch (e) {
      problem = (e as Error).message;
    }
  }
  stopping = true;
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {}
  const killer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {}
  }, 10_000);
  const code = await exited;
  clearTimeout(killer);
  // stopped by our SIGTERM: the server exits 0; `npx` in front of it may end by the signal itself (no code)
  return { code: problem ? 1 : code, stdout, stderr: problem ? `${stderr}\n${problem}` : stderr, ms: performance.now() - t0, timedOut: false };
}

/** Recipe id → the block command that reproduced it from the installed package (reproducedRecipe). */
const reproducedBy = new Map<string, string>();

/**
 * The recipe a command reproduced, when it is `[npx] lexcase reproduce <id>` — not a --replay, at
 * --limit 2 or more (or none) — and its run dir under `cwd` (--run-dir, or runs/reproduce-<id>-n…,
 * a shard's too) holds the table.md it wrote.
 */
export function reproducedRecipe(text: string, cwd: string): string | undefined {
  const t = stripComment(text).trim();
  const m = /^(?:npx (?:--no )?)?lexcase reproduce ([a-z0-9][\w-]*)(\s|$)/.exec(t);
  if (!m || /\s--replay\b/.test(t) || t.includes('\n')) return undefined;
  const limit = /\s--limit[\s=](\d+)/.exec(t);
  if (limit && Number(limit[1]) < 2) return undefined;
  const id = m[1];
  const runDir = /\s--run-dir[\s=](\S+)/.exec(t)?.[1];
  const dirs = runDir
    ? [resolve(cwd, runDir)]
    : existsSync(join(cwd, 'runs'))
      ? readdirSync(join(cwd, 'runs'))
          .filter((d) => d.startsWith(`reproduce-${id}-n`) && !d.endsWith('-replay'))
          .map((d) => join(cwd, 'runs', d))
      : [];
  return dirs.some((d) => existsSync(join(d, 'table.md'))) ? id : undefined;
}

/** The first `lexcase demo` a block ran (its stdout, wall ms, load at its start). */
let demoSeen: { stdout: string; ms: number; load: number } | undefined;

const REPO_COMMAND = /^(npm (ci|test|run)\b|node dist\/|npx tsx\b)/;

/** Where and how a command runs. */
export function commandMode(text: string): 'repo' | 'install' | 'serve' | 'consumer' {
  const t = stripComment(text).trim(); // a comment may name other commands ("# … lexcase serve --api for /v1")
  if (/^npm (install|i) lexcase\b/.test(t)) return 'install';
  if (REPO_COMMAND.test(t)) return 'repo';
  if (/(^|\s)(npx (--no )?)?lexcase serve\b/.test(t)) return 'serve';
  if (/(^|\s)(npx (--no )?)?lexcase mcp\b.*\s--http\b/.test(t)) return 'serve';
  return 'consumer';
}

function tail(s: string, n = 30): string {
  const lines = s.trimEnd().split('\n');
  return (lines.length > n ? ['…', ...lines.slice(-n)] : lines).map((l) => `      | ${l}`).join('\n');
}

async function makeFixtures(dir: string, lexcase: string): Promise<void> {
  const lib = await import(pathToFileURL(join(lexcase, 'dist/src/index.js')).href);
  mkdirSync(join(dir, 'data'), { recursive: true });
  const gold: { id: string; text: string }[] = [];
  for await (const p of lib.loadPassages('barexam')) gold.push({ id: p.id, text: p.text });
  const pool: { id: string; text: string }[] = [];
  // the legal_corpus passages' opinions and rules (doc_id): docs/eval.md's --aggregate examples read them from idx/mine
  const docOf = new Map<string, string>();
  for await (const p of lib.loadPassages('legal_corpus'))
    if (pool.length < 2000) {
      pool.push({ id: p.id, text: p.text });
      if (p.docId) docOf.set(p.id, p.docId);
    }
  const all = [...gold, ...pool];
  const jsonl = all.map((p) => JSON.stringify(p)).join('\n') + '\n';
  // a Bar Exam gold passage is a document of its own (its doc_id its id), so the document qrels name the same ids
  writeFileSync(join(dir, 'my-passages.jsonl'), all.map((p) => JSON.stringify({ ...p, doc_id: docOf.get(p.id) ?? p.id })).join('\n') + '\n');
  writeFileSync(join(dir, 'pool.jsonl'), jsonl);
  writeFileSync(join(dir, 'pool.jsonl.gz'), gzipSync(jsonl));
  writeFileSync(join(dir, 'data/passages.jsonl'), jsonl);
  writeFileSync(join(dir, 'pool.tsv'), 'pid\tpassage\n' + all.map((p) => `${p.id}\t${p.text.replace(/[\t\n\r]+/g, ' ')}`).join('\n') + '\n');
  const buf = parquetWriteBuffer({
    columnData: [
      { name: 'idx', data: all.map((p) => p.id), type: 'STRING' },
      { name: 'text', data: all.map((p) => p.text), type: 'STRING' },
    ],
  });
  writeFileSync(join(dir, 'pool.parquet'), Buffer.from(buf));
  const val = await lib.loadQuestions('barexam', 'val');
  const one = (s: string) => s.replace(/\s+/g, ' ').trim();
  writeFileSync(
    join(dir, 'queries.tsv'),
    val.map((q: { id: string; prompt?: string; question: string }) => `${q.id}\t${one(`${q.prompt ?? ''} ${q.question}`)}`).join('\n') + '\n',
  );
  const qrels = val.flatMap((q: { id: string; goldPassageIds: string[] }) => q.goldPassageIds.map((g) => `${q.id} 0 ${g} 1`)).join('\n') + '\n';
  writeFileSync(join(dir, 'qrels.txt'), qrels);
  // document-level qrels (docs/eval.md, --aggregate): a gold passage's doc_id in my-passages.jsonl is its own id
  writeFileSync(join(dir, 'doc-qrels.txt'), qrels);
}

function installTarball(consumer: string, tgz: string): void {
  mkdirSync(consumer, { recursive: true });
  if (!existsSync(join(consumer, 'package.json'))) sh('npm', ['init', '-y'], { cwd: consumer });
  sh('npm', ['install', '--no-audit', '--no-fund', tgz], { cwd: consumer });
}

async function main(): Promise<number> {
  const o = parse();
  const t0 = performance.now();
  const files = docFiles().filter((f) => !o.only.length || o.only.some((x) => f === x || f.startsWith(x.replace(/\/?$/, '/'))));
  const classified: Classified[] = [];
  const problems: string[] = [];
  for (const f of files) {
    const text = readFileSync(join(ROOT, f), 'utf8');
    for (const b of fencedBlocks(f, text)) classified.push(classify(b));
    for (const s of strayMarkers(f, text)) problems.push(`${f}:${s.line}: ${s.text} is not right above a fenced block`);
  }
  for (const c of classified) if (c.error) problems.push(`${c.block.file}:${c.block.line}: ${c.error}`);
  const runs = classified.filter((c) => c.kind === 'run' && !c.error);
  const skips = classified.filter((c) => c.kind === 'skip');
  const synopses = classified.filter((c) => c.kind === 'synopsis');
  for (const s of skips) console.log(`skip ${s.block.file}:${s.block.line} (${(s.block.marker as { reason: string }).reason})`);
  if (o.list) {
    for (const r of runs) {
      console.log(`run  ${r.block.file}:${r.block.line}`);
      for (const c of shellCommands(r.block)) console.log(`       [${commandMode(c.text)}] ${c.text.split('\n')[0]}`);
    }
    for (const s of synopses) console.log(`synopsis ${s.block.file}:${s.block.line}`);
    for (const p of problems) console.log(`FAIL ${p}`);
    console.log(`docs: ${runs.length} blocks to run, ${skips.length} skipped (marked), ${synopses.length} synopses, ${problems.length} failed`);
    return problems.length ? 1 : 0;
  }

  const work = o.work ?? mkdtempSync(join(tmpdir(), 'lexcase-docs-'));
  mkdirSync(work, { recursive: true });
  console.log(`docs-check: work dir ${work}`);
  let srv: ScriptedServer | undefined;
  try {
    // 1. the tarball, installed into an empty project
    let tgz = o.tarball;
    if (!tgz) {
      mkdirSync(join(work, 'pkg'), { recursive: true });
      console.log('docs-check: npm pack');
      sh('npm', ['pack', '--silent', '--pack-destination', join(work, 'pkg')], { cwd: ROOT });
      tgz = join(work, 'pkg', readdirSync(join(work, 'pkg')).find((f) => f.endsWith('.tgz'))!);
    }
    const consumer = o.consumer ?? join(work, 'consumer');
    if (!existsSync(join(consumer, 'node_modules/lexcase/package.json'))) {
      console.log(`docs-check: npm install ${basename(tgz)} into an empty project`);
      installTarball(consumer, tgz);
    }
    prelude = npxShim(consumer);
    consumerDir = consumer;
    const lexcaseDir = join(consumer, 'node_modules/lexcase');
    const bin = join(consumer, 'node_modules/.bin');

    // 2. the scripted LLM server
    srv = await startScriptedServer(scriptedAll());
    const home = join(work, 'home');
    mkdirSync(home, { recursive: true });
    const baseEnv: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!/^(LEXCASE_|OPENAI_|AWS_|npm_)/.test(k)) baseEnv[k] = v;
    Object.assign(baseEnv, {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: home,
      LEXCASE_LLM_BASE_URL: srv.url,
      LEXCASE_LLM_MODEL: 'scripted',
      LEXCASE_LLM_API_KEY: 'sk-docs-check',
      LEXCASE_CACHE_DIR: join(work, 'llm-cache'),
      LEXCASE_VERIFY_CACHE_DIR: join(work, 'verified'),
      NO_COLOR: '1',
      // npx must find the installed package, never fetch one; npm stays quiet about updates and
      // keeps using the machine's package cache (HOME is the check's own)
      NPM_CONFIG_OFFLINE: 'true',
      NPM_CONFIG_CACHE: process.env.npm_config_cache ?? join(process.env.HOME ?? home, '.npm'),
      NPM_CONFIG_UPDATE_NOTIFIER: 'false',
    });
    const substitute = (t: string) => t.split(EXAMPLE_ENDPOINT).join(srv!.url);

    // 3. fixtures
    const fixtures = join(work, 'fixtures');
    if (!existsSync(join(fixtures, 'qrels.txt')) || !existsSync(join(fixtures, 'doc-qrels.txt'))) await makeFixtures(fixtures, lexcaseDir);

    // 4. the blocks, file by file
    const failed: string[] = [...problems];
    let ran = 0;
    const stateDir = join(work, 'state');
    mkdirSync(stateDir, { recursive: true });
    // Each file runs in a work dir of its own, so files run side by side (--jobs, default 2); a file
    // that installs the package or runs a command in the checkout runs alone. Each file's lines are
    // printed when it and every file before it are done: the output is in document order.
    const perFile = files
      .map((f) => ({ f, mine: runs.filter((r) => r.block.file === f) }))
      .filter((x) => x.mine.length)
      .map(({ f, mine }) => ({
        f,
        alone: mine.some((r) =>
          shellCommands(r.block).some((c) => commandMode(substitute(c.text)) !== 'consumer' && commandMode(substitute(c.text)) !== 'serve'),
        ),
        run: async () => {
          const out: string[] = [];
          const fails: string[] = [];
          // inside the project, as a user's shell would be: `npx lexcase` finds the installed package from here
          const ws = join(consumer, 'docs-ws', f.replace(/[^\w.-]+/g, '_'));
          rmSync(ws, { recursive: true, force: true });
          cpSync(fixtures, ws, { recursive: true });
          const state: Shell = { env: { ...baseEnv }, cwd: ws };
          for (const r of mine) {
            ran++;
            let blockFailed = false;
            for (const c of shellCommands(r.block)) {
              const where = `${f}:${c.line}`;
              if (blockFailed) {
                out.push(`  --    ${where}  ${c.text.split('\n')[0]}  (not run: an earlier command of the block failed)`);
                continue;
              }
              const res = await runOne(c, state, { tgz, consumer, stateDir, timeout: o.timeout, substitute });
              const why = verdict(c, res);
              if (!why && commandMode(substitute(c.text)) === 'consumer') {
                const id = reproducedRecipe(c.text, state.cwd);
                if (id && !reproducedBy.has(id)) reproducedBy.set(id, `${where} (${stripComment(c.text).trim()})`);
              }
              out.push(`  ${why ? 'FAIL' : 'ok  '} ${took(res)}  ${where}  ${c.text.split('\n')[0]}`);
              if (why) {
                blockFailed = true;
                fails.push(`${where}: ${why}`);
                out.push(`      ${why}\n      stderr:\n${tail(res.stderr)}\n      stdout:\n${tail(res.stdout, 15)}`);
              }
            }
          }
          return { out, fails };
        },
      }));
    for (const r of await inOrder(perFile, o.jobs)) failed.push(...r.fails);

    // 5. synopses
    const helpCache = new Map<string, Outcome>();
    let synopsisLines = 0;
    for (const s of synopses) {
      for (const line of s.block.body
        .split('\n')
        .map((l, i) => ({ l, i }))
        .filter(({ l }) => /^(npx )?lexcase /.test(l))) {
        synopsisLines++;
        const where = `${s.block.file}:${s.block.line + 1 + line.i}`;
        const cont = continuation(s.block.body.split('\n'), line.i);
        const words = cont.replace(/^(npx )?lexcase /, '').split(/\s+/);
        const path: string[] = [];
        for (const w of words)
          if (/^[a-z][a-z-]*$/.test(w) && path.length < 2) path.push(w);
          else break;
        const key = path.join(' ');
        if (!helpCache.has(key)) helpCache.set(key, await runBash(`lexcase ${key} --help`, { env: baseEnv, cwd: work }, 120, stateDir));
        const help = helpCache.get(key)!;
        // `lexcase reproduce <recipe>`: the path may include a positional the command takes; trim to what --help knows
        const flags = [...cont.matchAll(/(?<![\w-])(--[a-z][a-z0-9-]*)/g)].map((m) => m[1]);
        // global flags (--json, --quiet, --debug) are accepted after any command
        if (!helpCache.has('')) helpCache.set('', await runBash('lexcase --help', { env: baseEnv, cwd: work }, 120, stateDir));
        const known = `${help.stdout}\n${helpCache.get('')!.stdout}`;
        const missing =
          help.code !== 0
            ? [`lexcase ${key} --help exited ${help.code}`]
            : [...new Set(flags)].filter((fl) => !new RegExp(`(^|[\\s,])${fl}(?![\\w-])`, 'm').test(known));
        if (missing.length) failed.push(`${where}: synopsis \`lexcase ${key}\`: ${missing.join(', ')} not in \`lexcase ${key} --help\``);
      }
    }

    // 6. figure regions
    const regions = files.flatMap((f) => figureRegions(f, readFileSync(join(ROOT, f), 'utf8')));
    if (o.figures && regions.length) {
      const facts: Facts = { packBytes: statSync(tgz).size };
      if (regions.some((r) => REGIONS[r.name]?.needs.includes('caseTable3'))) {
        console.log('docs-check: figures: lexcase reproduce case-table3 from the installed package');
        const d = join(work, 'figures-case-table3');
        mkdirSync(d, { recursive: true });
        try {
          let cpu = 0;
          const t1 = performance.now();
          facts.caseTable3 = await measureCaseTable3(async (args) => {
            const r = await runBash(`lexcase ${args}`, { env: baseEnv, cwd: d }, o.timeout, stateDir);
            cpu += r.cpu ?? 0;
            return r;
          }, d);
          console.log(`docs-check: figures: case-table3 measured in ${((performance.now() - t1) / 1000).toFixed(1)} s, ${cpu.toFixed(1)} s CPU`);
        } catch (e) {
          failed.push(`figures: ${(e as Error).message}`);
        }
      }
      if (regions.some((r) => REGIONS[r.name]?.needs.some((n) => n === 'demoStdout' || n === 'demoWall'))) {
        let demo = demoSeen;
        if (demo) console.log('docs-check: figures: the demo run by a block above (installed package, fresh work dir)');
        else {
          console.log('docs-check: figures: lexcase demo from the installed package');
          const load = loadavg()[0];
          const r = await runBash(`lexcase demo --dir ${JSON.stringify(join(work, 'figures-demo'))}`, { env: baseEnv, cwd: work }, o.timeout, stateDir);
          if (r.code !== 0) failed.push(`figures: lexcase demo exited ${r.code}\n${tail(r.stderr)}`);
          demo = { stdout: r.stdout, ms: r.ms, load };
        }
        facts.demoStdout = demo.stdout;
        facts.demoWall = {
          seconds: demo.ms / 1000,
          command: 'lexcase demo',
          cpu: cpus()[0]?.model ?? '?',
          cores: cpus().length,
          load: demo.load,
          date: new Date().toISOString().slice(0, 10),
        };
        console.log(`docs-check: figures: the demo took ${(demo.ms / 1000).toFixed(1)} s here (load ${demo.load.toFixed(1)} at its start)`);
      }
      for (const r of regions) {
        const spec = REGIONS[r.name];
        const where = `${r.file}:${r.line}`;
        if (!spec) {
          failed.push(`${where}: unknown figure region "${r.name}" (known: ${Object.keys(REGIONS).join(', ')})`);
          continue;
        }
        let diffs: string[];
        if (spec.needs.some((k) => facts[k] === undefined)) {
          failed.push(`${where}: figures:${r.name}: not measured (see the failure above)`);
          continue;
        }
        try {
          diffs = spec.check(r.content, spec.render(facts), facts);
        } catch (e) {
          diffs = [(e as Error).message];
        }
        console.log(`  ${diffs.length ? 'FAIL' : 'ok  '} figures:${r.name}  ${where}`);
        for (const d of diffs) failed.push(`${where}: figures:${r.name}: ${d}`);
      }
    }

    // 7. every recipe from the installed package, --limit 2
    let recipesRun = 0;
    let recipesByBlocks = 0;
    if (o.recipes) {
      const list = await runBash('lexcase --json reproduce', { env: baseEnv, cwd: work }, 120, stateDir);
      let ids: string[] = [];
      // a recipe whose data is only the user's own copy (CACM) cannot run here: it must exit 1 naming --data
      const ownData = new Set<string>();
      try {
        const listed = (JSON.parse(list.stdout).recipes ?? JSON.parse(list.stdout)) as { id: string; ownDataOnly?: boolean }[];
        ids = listed.map((r) => r.id);
        for (const r of listed) if (r.ownDataOnly === true) ownData.add(r.id);
      } catch {
        failed.push(`recipes: \`lexcase --json reproduce\` printed no recipe list (exit ${list.code})\n${tail(list.stderr)}`);
      }
      const ws = join(consumer, 'docs-ws', 'recipes');
      mkdirSync(ws, { recursive: true });
      // a recipe a block above reproduced from the installed package (at --limit ≥ 2, table.md written)
      // is not run again here: the same command, the same package (README.md:90 case-table3,
      // docs/llm.md:403 case-table2, docs/reproductions.md:129 acal-table4)
      const perRecipe = ids.map((id) => ({
        f: id,
        alone: false,
        run: async () => {
          recipesRun++;
          const by = reproducedBy.get(id);
          if (by && !ownData.has(id)) {
            recipesByBlocks++;
            return { out: [`  ok       —                reproduce ${id}: reproduced by a block above, ${by}`], fails: [] };
          }
          const res = await runBash(
            `lexcase reproduce ${id} --limit 2 --endpoint ${srv!.url} --model scripted --run-dir runs/${id}`,
            { env: baseEnv, cwd: ws },
            o.timeout,
            stateDir,
          );
          const table = join(ws, 'runs', id, 'table.md');
          const own = ownData.has(id);
          const exitWhy = own
            ? res.code !== 1
              ? `exit ${res.code} (expected 1: no --data)`
              : !/pass --data/.test(res.stderr)
                ? 'exit 1 without naming --data'
                : ''
            : res.code !== 0
              ? `exit ${res.code}`
              : '';
          // an own-data recipe without --data is refused before anything is written (issue 37 item 17)
          const wrote = own ? (existsSync(join(ws, 'runs', id)) ? 'wrote a run dir though it was refused' : '') : !existsSync(table) ? 'wrote no table.md' : '';
          const why = res.timedOut ? `timed out after ${o.timeout} s` : exitWhy || (STACK.test(res.stderr + res.stdout) ? 'printed a stack trace' : wrote);
          const out = [
            `  ${why ? 'FAIL' : 'ok  '} ${took(res)}  reproduce ${id} --limit 2 (installed package, scripted server)${own ? ' — needs your data: exit 1 naming --data, nothing written' : ''}`,
          ];
          return { out, fails: why ? [`recipe ${id}: ${why}\n${tail(res.stderr)}`] : [] };
        },
      }));
      // each recipe writes its own run dir (runs/<id>): they run side by side too
      for (const r of await inOrder(perRecipe, o.jobs)) failed.push(...r.fails);
    }

    const mins = (performance.now() - t0) / 60000;
    if (failed.length) {
      console.log('\nFailures:');
      for (const x of failed) console.log(`  - ${x}`);
    }
    if (synopses.length) console.log(`docs: ${synopsisLines} synopsis lines in ${synopses.length} \`\`\`text blocks checked against --help`);
    if (o.recipes)
      console.log(
        `docs: ${recipesRun} recipes reproduced from the installed package (${recipesRun - recipesByBlocks} at --limit 2 here, ${recipesByBlocks} by a block above)`,
      );
    console.log(`docs: ${ran} blocks run, ${skips.length} skipped (marked), ${failed.length} failed  (${mins.toFixed(1)} min)`);
    return failed.length ? 1 : 0;
  } finally {
    await srv?.close();
    if (!o.keep && !o.work) rmSync(work, { recursive: true, force: true });
    else console.log(`docs-check: kept ${work}`);
  }
}

export interface Job {
  f: string;
  /** Runs with nothing beside it. */
  alone: boolean;
  run(): Promise<{ out: string[]; fails: string[] }>;
}

/**
 * Run the jobs, up to `jobs` at a time (an `alone` job waits for the others and runs by itself);
 * each job's lines are printed once it and every job before it are done, so the output reads as a
 * one-at-a-time run would print it. Resolves with the results in job order.
 */
export async function inOrder(all: Job[], jobs: number): Promise<{ out: string[]; fails: string[] }[]> {
  const results: ({ out: string[]; fails: string[] } | undefined)[] = all.map(() => undefined);
  let printed = 0;
  const flush = () => {
    while (printed < all.length && results[printed]) {
      for (const l of results[printed]!.out) console.log(l);
      printed++;
    }
  };
  const running = new Set<Promise<void>>();
  for (let i = 0; i < all.length; i++) {
    const j = all[i];
    while (running.size >= (j.alone ? 1 : jobs) || (running.size > 0 && j.alone)) await Promise.race(running);
    const p: Promise<void> = j.run().then(
      (r) => {
        results[i] = r;
        flush();
        running.delete(p);
      },
      (e: unknown) => {
        results[i] = { out: [`  FAIL ${j.f}: ${(e as Error).message}`], fails: [`${j.f}: ${(e as Error).message}`] };
        flush();
        running.delete(p);
      },
    );
    running.add(p);
    // an `alone` job also runs alone: the next one waits for it
    if (j.alone) await p;
  }
  await Promise.all(running);
  return results as { out: string[]; fails: string[] }[];
}

function continuation(lines: string[], i: number): string {
  const parts = [lines[i]];
  for (let j = i + 1; j < lines.length && /^\s+\S/.test(lines[j]) && !/^\s*(npx )?lexcase /.test(lines[j]); j++) parts.push(lines[j]);
  return parts.join(' ').replace(/\s+#.*$/, '');
}

async function runOne(
  c: Command,
  state: Shell,
  o: { tgz: string; consumer: string; stateDir: string; timeout: number; substitute: (t: string) => string },
): Promise<Outcome> {
  const text = o.substitute(c.text);
  const mode = commandMode(text);
  if (mode === 'serve') return runServe(text, state, Math.min(o.timeout, 120));
  if (mode === 'install') {
    const r = await runBash(
      `npm install --no-audit --no-fund ${JSON.stringify(o.tgz)}`,
      { env: { ...state.env, NPM_CONFIG_OFFLINE: 'false', NPM_CONFIG_PREFER_OFFLINE: 'true' }, cwd: o.consumer },
      o.timeout,
      o.stateDir,
    );
    return r;
  }
  const load = loadavg()[0];
  const r = await runBash(text, mode === 'repo' ? { env: state.env, cwd: ROOT } : state, o.timeout, o.stateDir);
  // a block that runs the demo as the docs show it (fresh work dir, default demo dir): its output serves the figure check too
  if (mode === 'consumer' && /^(npx (--no )?)?lexcase demo$/.test(stripComment(text).trim()) && r.code === 0 && !demoSeen)
    demoSeen = { stdout: r.stdout, ms: r.ms, load };
  if (r.env) state.env = r.env;
  if (r.cwd && mode !== 'repo') state.cwd = r.cwd;
  return r;
}

function verdict(c: Command, r: Outcome): string {
  if (r.timedOut) return `timed out`;
  if (r.code !== 0) return `exit ${r.code}`;
  if (STACK.test(r.stderr) || STACK.test(r.stdout)) return 'printed a stack trace';
  if (c.expected && !matchLines(c.expected, r.stdout.trimEnd().split('\n')))
    return `printed other than the output shown in the docs:\n${c.expected.map((l) => `      - ${l}`).join('\n')}`;
  return '';
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(fileURLToPath(import.meta.url))) {
  main().then(
    (code) => process.exit(code),
    (e) => {
      console.error(e);
      process.exit(2);
    },
  );
}
