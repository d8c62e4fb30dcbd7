/**
 * The built `lexcase` (dist/src/cli/main.js) as a child process, for the MCP and API tests: an SDK
 * Client connected to `lexcase mcp` over stdio, and long-running `lexcase mcp --http` / `lexcase
 * serve --api` children whose --json start line gives their URL. The child's environment is the
 * test's minus LEXCASE_LLM_* / OPENAI_* (a developer's own endpoint never reaches a test), plus `env`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PACKAGE_ROOT } from '../../../core/version.js';

export const BUILT_CLI = join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js');

function assertBuilt(): void {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run \`npm run build\` first`);
}

export function childEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(LEXCASE_LLM_|LEXCASE_API_TOKEN|OPENAI_)/.test(k)) env[k] = v;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export interface StdioMcp {
  client: Client;
  /** The server child's pid. */
  pid: number | null;
  stderr(): string;
  close(): Promise<void>;
}

/** `lexcase mcp ARGS` over stdio with an SDK client connected to it (`cli`: another built entry, e.g. an installed tarball's). */
export async function stdioMcp(args: string[], o: { cwd?: string; env?: Record<string, string | undefined>; cli?: string } = {}): Promise<StdioMcp> {
  if (!o.cli) assertBuilt();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [o.cli ?? BUILT_CLI, 'mcp', ...args],
    cwd: o.cwd,
    env: childEnv(o.env),
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const client = new Client({ name: 'lexcase-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, pid: transport.pid, stderr: () => err, close: () => client.close() };
}

export interface ServerChild {
  /** The child's --json start line, parsed (url, …). */
  info: Record<string, unknown> & { url: string };
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  /** SIGTERM, then wait for the exit; the exit code. */
  stop(): Promise<number | null>;
}

/** Start `lexcase --json ARGS` (a server) and wait for its JSON start line on stdout (`cli`: another built entry, e.g. an installed tarball's). */
export function startServerChild(
  args: string[],
  o: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs?: number; cli?: string } = {},
): Promise<ServerChild> {
  if (!o.cli) assertBuilt();
  const child = spawn(process.execPath, [o.cli ?? BUILT_CLI, '--json', ...args], {
    cwd: o.cwd ?? PACKAGE_ROOT,
    env: childEnv(o.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no start line within ${o.timeoutMs ?? 150_000} ms; stderr:\n${err}`));
    }, o.timeoutMs ?? 150_000);
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      try {
        const info = JSON.parse(out) as ServerChild['info'];
        clearTimeout(timer);
        resolveStart({
          info,
          child,
          stderr: () => err,
          stop: async () => {
            if (child.exitCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      } catch {
        /* not a whole JSON value yet */
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before its start line; stderr:\n${err}`));
    });
  });
}

/** An SDK client over streamable HTTP (with a bearer token, if given). */
export async function httpMcpClient(url: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : undefined);
  const client = new Client({ name: 'lexcase-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** Run the built CLI to its end (for commands that must refuse to start). */
export function runBuiltCli(
  args: string[],
  o: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  assertBuilt();
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [BUILT_CLI, ...args], { cwd: o.cwd ?? PACKAGE_ROOT, env: childEnv(o.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
  });
}
