#!/usr/bin/env node
/**
 * Writes the example exchanges of docs/mcp.md from a real run (nothing in them is typed by hand):
 *  1. the built `lexcase mcp` over stdio, started with no --index in a fresh temporary directory
 *     (so it builds and serves the bundled default index), driven by the MCP SDK's own Client; every
 *     JSON-RPC message both ways is recorded;
 *  2. the built `lexcase serve --api` on 127.0.0.1 (any free port), one POST /v1/search.
 * Long strings are cut to 160 characters, arrays of more than 8 items to their first 5, and the
 * tools/list reply to each tool's name, title and input properties (each cut is marked "…");
 * everything else is as sent.
 *
 *   npm run build && node scripts/mcp-example.mjs      # rewrites the marked sections of docs/mcp.md
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'src', 'cli', 'main.js');
const doc = join(root, 'docs', 'mcp.md');
const work = mkdtempSync(join(tmpdir(), 'lexcase-mcp-example-'));
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(LEXCASE_LLM_|LEXCASE_API_TOKEN|OPENAI_)/.test(k)));

const cut = (v) => {
  if (typeof v === 'string') return v.length > 160 ? `${v.slice(0, 159)}…` : v;
  if (Array.isArray(v)) return v.length > 8 ? [...v.slice(0, 5).map(cut), `… ${v.length - 5} more`] : v.map(cut);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x)]));
  return v;
};

/** A transport that records every message it carries. */
function recording(inner, log) {
  const t = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: (m, o) => {
      log.push(['client → server', m]);
      return inner.send(m, o);
    },
    setProtocolVersion: (v) => inner.setProtocolVersion?.(v),
  };
  Object.defineProperty(t, 'onmessage', { set: (f) => (inner.onmessage = (m, e) => (log.push(['server → client', m]), f(m, e))) });
  Object.defineProperty(t, 'onclose', { set: (f) => (inner.onclose = f) });
  Object.defineProperty(t, 'onerror', { set: (f) => (inner.onerror = f) });
  return t;
}

/** JSON with 2-space indents, each object or array that fits in 100 characters on one line. */
function pretty(v, indent = '') {
  const flat = JSON.stringify(v);
  if (flat === undefined || flat.length + indent.length <= 100 || v === null || typeof v !== 'object') return flat;
  const inner = indent + '  ';
  if (Array.isArray(v)) return `[\n${v.map((x) => inner + pretty(x, inner)).join(',\n')}\n${indent}]`;
  return `{\n${Object.entries(v)
    .map(([k, x]) => `${inner}${JSON.stringify(k)}: ${pretty(x, inner)}`)
    .join(',\n')}\n${indent}}`;
}

function shownMessage(m) {
  // tools/list: name, title and input properties of each tool (the full schemas are long)
  if (m.result?.tools)
    return {
      ...m,
      result: {
        tools: m.result.tools.map((t) => ({
          name: t.name,
          title: t.title,
          inputSchema: { properties: Object.keys(t.inputSchema.properties ?? {}), '…': '…' },
          outputSchema: '…',
        })),
      },
    };
  // the text content repeats structuredContent as JSON: show its start only
  if (m.result?.structuredContent)
    return { ...m, result: { ...m.result, content: m.result.content.map((c) => (c.type === 'text' ? { type: 'text', text: `${c.text.slice(0, 60)}…` } : c)) } };
  return m;
}

async function mcpExchange() {
  const log = [];
  const inner = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], cwd: work, env, stderr: 'pipe' });
  let stderr = '';
  inner.stderr?.on('data', (c) => (stderr += c));
  const client = new Client({ name: 'example-client', version: '1.0.0' });
  await client.connect(recording(inner, log));
  await client.listTools();
  await client.callTool({ name: 'list_indexes', arguments: {} });
  const s = await client.callTool({ name: 'search', arguments: { query: 'hearsay statement against interest', k: 2, filters: { sources: ['fre'] } } });
  const hit = s.structuredContent.hits[0];
  await client.callTool({ name: 'explain', arguments: { query: 'hearsay statement against interest', id: hit.id } });
  await client.readResource({ uri: hit.uri });
  await client.callTool({
    name: 'find_evidence',
    arguments: { hypothesis: "A statement against the declarant's penal interest is admissible if the declarant is unavailable", k: 2 },
  });
  await client.callTool({ name: 'search', arguments: { query: 'hearsay', k: 0 } });
  await client.close();
  const shown = log.map(([dir, m]) => `${dir}\n${pretty(cut(shownMessage(m)))}`);
  return { text: shown.join('\n\n'), stderr: stderr.trim() };
}

function startApi() {
  return new Promise((resolveStart, reject) => {
    const child = spawn(process.execPath, [cli, '--json', 'serve', '--api', '--port', '0'], { cwd: work, env });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (s) => {
      out += s;
      try {
        resolveStart({ info: JSON.parse(out), child });
      } catch {
        /* not whole yet */
      }
    });
    child.on('close', (code) => reject(new Error(`serve --api exited ${code}`)));
  });
}

async function apiExchange() {
  const { info, child } = await startApi();
  const base = info.url.replace(/\/v1$/, '');
  const body = { query: 'hearsay statement against interest', k: 2, filters: { sources: ['fre'] } };
  const res = await fetch(`${base}/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await res.json();
  const bad = await fetch(`${base}/v1/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'hearsay', k: 0 }),
  });
  const badJson = await bad.json();
  child.kill('SIGTERM');
  const port = new URL(base).port;
  const shownBase = base.replace(`:${port}`, ':8080');
  return [
    `$ curl -s ${shownBase}/v1/search -H 'content-type: application/json' -d '${JSON.stringify(body)}'`,
    pretty(cut(json)),
    '',
    `$ curl -s ${shownBase}/v1/search -H 'content-type: application/json' -d '{"query":"hearsay","k":0}'    # HTTP ${bad.status}`,
    pretty(badJson),
  ].join('\n');
}

function replaceSection(text, name, body) {
  const begin = `<!-- ${name}:begin (generated by scripts/mcp-example.mjs; do not edit) -->`;
  const end = `<!-- ${name}:end -->`;
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`docs/mcp.md has no ${name} markers`);
  return `${text.slice(0, i + begin.length)}\n${body}\n${text.slice(j)}`;
}

try {
  const mcp = await mcpExchange();
  const api = await apiExchange();
  let text = readFileSync(doc, 'utf8');
  text = replaceSection(text, 'mcp-exchange', '```text\n' + (mcp.stderr ? `(server stderr)\n${mcp.stderr}\n\n` : '') + mcp.text + '\n```');
  text = replaceSection(text, 'api-exchange', '```text\n' + api + '\n```');
  writeFileSync(doc, text);
  console.log(`docs/mcp.md: example exchanges written (lexcase mcp and serve --api in ${work}, removed)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
