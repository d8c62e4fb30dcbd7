/**
 * The line `lexcase run <system>` logs about its paper's sampling (agents/common/paper-settings.ts):
 * every value the paper gives, each either taken from the paper or set by the user — then with
 * where it was set (the command's flag, an environment variable, the config file) and the paper's
 * value it replaced — and how to override the paper's:
 *
 *   emar: temperature 0.5 (--temperature; the paper's 0.1); topP 0.9, maxTokens 2048 (the paper's; set llm.topP to override)
 *   emar: temperature 0.1, topP 0.9, maxTokens 2048 (the paper's; set --temperature or llm.temperature to override)
 */
import { isAbsolute, relative } from 'node:path';
import { llmEnvVar } from '../../core/config.js';
import type { PaperSampling } from '../../eval/systems.js';

export type SamplingKey = 'temperature' | 'topP' | 'maxTokens';
const KEYS: readonly SamplingKey[] = ['temperature', 'topP', 'maxTokens'];

/** 'topP' → '--top-p'. */
const flagOf = (k: SamplingKey) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export interface SamplingSources {
  /** The keys the command's own flags gave (they win over the environment and the file). */
  given: readonly string[];
  /** The keys the command has a flag for, given or not (run emar: temperature). */
  flags: readonly string[];
  env: NodeJS.ProcessEnv;
  /** The config file read, if any. */
  file?: string;
  cwd: string;
}

/** Where a set value of `k` came from: "--temperature", "LEXCASE_LLM_TEMPERATURE", "llm.temperature in lexcase.config.json". */
function sourceOf(k: SamplingKey, o: SamplingSources): string {
  if (o.given.includes(k)) return flagOf(k);
  const v = llmEnvVar(k, o.env);
  if (v) return v;
  if (!o.file) return `llm.${k}`;
  const rel = relative(o.cwd, o.file);
  return `llm.${k} in ${rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : o.file}`;
}

/** The line, or undefined when the paper gives no sampling value. */
export function paperSamplingLine(
  system: string,
  paper: PaperSampling,
  llm: Partial<Record<SamplingKey, number>>,
  fromPaper: readonly string[],
  o: SamplingSources,
): string | undefined {
  const keys = KEYS.filter((k) => paper[k] !== undefined);
  if (!keys.length) return undefined;
  const set = keys.filter((k) => !fromPaper.includes(k)).map((k) => `${k} ${llm[k]} (${sourceOf(k, o)}; the paper's ${paper[k]})`);
  const own = keys.filter((k) => fromPaper.includes(k));
  const how = own.length ? `${o.flags.includes(own[0]) ? `${flagOf(own[0])} or ` : ''}llm.${own[0]}` : '';
  const papers = own.length ? [`${own.map((k) => `${k} ${llm[k]}`).join(', ')} (the paper's; set ${how} to override)`] : [];
  return `${system}: ${[...set, ...papers].join('; ')}`;
}
