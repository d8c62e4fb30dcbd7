/**
 * The runner tests' debate: one Bar Exam item whose debaters ask at once and fail the item when any
 * request fails (Promise.all, as MAD's debaters do), beside an optional step of the item's own (a
 * judge that fails), through the real LLM client against a scripted server (each request's text is
 * "[mbe_581] debater <letter>", so a script can route by debater), run through the real runner
 * (`runExperiment`, seed 1). For tests of what a run records when its item ends while requests are
 * out: in flight, waiting out a backoff, or waiting for a concurrency slot.
 */
import { readFileSync } from 'node:fs';
import { HumanMessage } from '@langchain/core/messages';
import { type LlmConfig, llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { exchangesPath } from '../llm-exchanges.js';
import { contextFrom, type RunExperimentResult, runExperiment } from '../runner.js';
import type { AgentSystem } from '../types.js';

export interface DebateItem {
  id: string;
  answer: string;
}

export const DEBATE_ITEM: DebateItem = { id: 'mbe_581', answer: 'B' };

export interface DebateRun {
  runDir: string;
  /** The scripted server's base URL. */
  baseUrl: string;
  /** The debaters' letters, each one request. */
  debaters: string[];
  /** The LLM settings beside the server's (maxRetries, concurrency, retry backoff). */
  llm: Partial<LlmConfig>;
  /** A step of the item's own run beside the debaters (e.g. a judge that fails). */
  ownStep?: () => Promise<unknown>;
}

/** Runs the debate on DEBATE_ITEM through `runExperiment` (config { system: 'debate' }, seed 1). */
export function runDebate(o: DebateRun): Promise<RunExperimentResult> {
  const llm = createChatModel(llmConfigSchema.parse({ baseUrl: o.baseUrl, model: 'scripted', cacheDir: false, ...o.llm }));
  const debate: AgentSystem<DebateItem> = async (item, ctx) => {
    const ask = (who: string) => ctx.llm!.invoke([new HumanMessage(`[${item.id}] debater ${who}`)], { signal: ctx.signal });
    await Promise.all([...o.debaters.map(ask), ...(o.ownStep ? [o.ownStep()] : [])]);
    return { prediction: item.answer, trace: {} };
  };
  return runExperiment({
    runDir: o.runDir,
    system: debate,
    items: [DEBATE_ITEM],
    gold: (q) => q.answer,
    makeContext: contextFrom({ llm }),
    config: { system: 'debate' },
    seed: 1,
  });
}

/**
 * An item's own step (a judge) that fails as soon as the server has received a first request: the
 * item then ends with that request in flight, whatever the machine's load.
 */
export async function failOnceServerHasARequest(server: { requests: readonly unknown[] }): Promise<never> {
  while (server.requests.length === 0) await new Promise((ok) => setTimeout(ok, 5));
  throw new Error('the judge step failed');
}

/** A debate exchanges line's fields these tests read. */
export interface DebateExchange {
  abandoned?: boolean;
  unsent?: boolean;
  retries?: number;
  error?: { message: string };
}

/** DEBATE_ITEM's recorded exchanges (its llm-exchanges file), one per line. */
export function readDebateExchanges(runDir: string): DebateExchange[] {
  return readFileSync(exchangesPath(runDir, DEBATE_ITEM.id), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as DebateExchange);
}
