/**
 * On-disk LLM response cache: one JSON file per entry, `<dir>/<sha256(prompt \0 llmKey)>.json`.
 * A LangChain BaseCache, so it also works as `cache:` on any LangChain chat model; the lexcase
 * factory calls it with the full wire request (model + messages incl. tool calls + parameters +
 * bound tools) as the key, which LangChain's own cache key (a text rendering of the messages)
 * does not capture. Chat generations are stored with content, tool calls and metadata so that
 * tool-call replies come back from the cache as real AIMessages. Writes are atomic (tmp + rename;
 * a write that fails, e.g. on a full disk, removes its temp file); an unreadable entry counts as a miss.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BaseCache } from '@langchain/core/caches';
import { AIMessage, isAIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatGeneration, Generation } from '@langchain/core/outputs';
import { storedCounts } from './reply-usage.js';

export interface StoredGeneration {
  text: string;
  generationInfo?: Record<string, unknown>;
  message?: {
    content: unknown;
    tool_calls?: unknown[];
    invalid_tool_calls?: unknown[];
    additional_kwargs?: Record<string, unknown>;
    response_metadata?: Record<string, unknown>;
    usage_metadata?: unknown;
    id?: string;
  };
}

/** What a server says about the model it serves under a name (server-identity.ts), as an entry records it. */
export interface ServerIdentity {
  /** sha256 (first 12 hex) of the model's GET /models entry, keys sorted, a request-time `created` left out. */
  digest: string;
  /** How a person reads it: `"local-model" (GET /models entry 3f9a1c2b4d5e)`. */
  said: string;
}

interface Entry {
  v: 1;
  createdAt: string;
  generations: StoredGeneration[];
  /** What the server said about the model when it wrote the entry (server-identity.ts); absent when it said nothing, or an older lexcase wrote it. */
  server?: ServerIdentity;
}

export function cacheKeyHash(prompt: string, llmKey: string): string {
  return createHash('sha256').update(prompt).update('\0').update(llmKey).digest('hex');
}

export function storeGeneration(g: Generation): StoredGeneration {
  const out: StoredGeneration = { text: g.text, generationInfo: g.generationInfo };
  const msg = (g as ChatGeneration).message as BaseMessage | undefined;
  if (msg) {
    const ai = isAIMessage(msg) ? msg : undefined;
    out.message = {
      content: msg.content,
      tool_calls: ai?.tool_calls,
      invalid_tool_calls: ai?.invalid_tool_calls,
      additional_kwargs: msg.additional_kwargs,
      response_metadata: msg.response_metadata,
      usage_metadata: ai?.usage_metadata,
      id: msg.id,
    };
  }
  return out;
}

export function restoreGeneration(s: StoredGeneration): Generation {
  if (!s.message) return { text: s.text, generationInfo: s.generationInfo };
  const m = s.message;
  const message = new AIMessage({
    content: m.content as AIMessage['content'],
    tool_calls: (m.tool_calls ?? []) as AIMessage['tool_calls'],
    invalid_tool_calls: (m.invalid_tool_calls ?? []) as AIMessage['invalid_tool_calls'],
    additional_kwargs: m.additional_kwargs ?? {},
    response_metadata: m.response_metadata ?? {},
    usage_metadata: storedCounts(m.usage_metadata, 'usage_metadata') as AIMessage['usage_metadata'],
    id: m.id,
  });
  return { text: s.text, generationInfo: s.generationInfo, message } as ChatGeneration;
}

export class DiskCache extends BaseCache<Generation[]> {
  constructor(readonly dir: string) {
    super();
  }

  path(prompt: string, llmKey: string): string {
    return join(this.dir, `${cacheKeyHash(prompt, llmKey)}.json`);
  }

  async lookup(prompt: string, llmKey: string): Promise<Generation[] | null> {
    return (await this.lookupEntry(prompt, llmKey))?.generations ?? null;
  }

  /** The entry's generations, when it was written and by which server (undefined: a miss). */
  async lookupEntry(prompt: string, llmKey: string): Promise<{ generations: Generation[]; createdAt?: string; server?: ServerIdentity } | undefined> {
    try {
      const entry = JSON.parse(await readFile(this.path(prompt, llmKey), 'utf8')) as Entry;
      if (entry.v !== 1 || !Array.isArray(entry.generations)) return undefined;
      const server = entry.server && typeof entry.server.digest === 'string' && typeof entry.server.said === 'string' ? entry.server : undefined;
      return {
        generations: entry.generations.map(restoreGeneration),
        ...(typeof entry.createdAt === 'string' ? { createdAt: entry.createdAt } : {}),
        ...(server ? { server: { digest: server.digest, said: server.said } } : {}),
      };
    } catch {
      return undefined;
    }
  }

  /** Write the entry; `server`: what the server that gave it says about its model (server-identity.ts), when it says. */
  async update(prompt: string, llmKey: string, value: Generation[], server?: ServerIdentity): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const file = this.path(prompt, llmKey);
    const entry: Entry = { v: 1, createdAt: new Date().toISOString(), generations: value.map(storeGeneration), ...(server ? { server } : {}) };
    const tmp = `${file}.tmp-${process.pid}-${Math.floor(performance.now() * 1000)}`;
    try {
      await writeFile(tmp, JSON.stringify(entry));
      await rename(tmp, file);
    } catch (e) {
      // A full disk leaves the temp file created and empty: remove it (the entry is just not cached).
      await rm(tmp, { force: true }).catch(() => undefined);
      throw e;
    }
  }
}
