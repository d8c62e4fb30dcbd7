/**
 * The line `lexcase run <system>` logs about its paper's sampling (agents/common/paper-settings.ts):
 * every value the paper gives, each either taken from the paper or set by the user — then with
 * where it was set (the command's flag, an environment variable, the config file) and the paper's
 * value it replaced — and how to override the paper's. A value lexcase sets where the paper gives
 * none (`PaperSampling.lexcaseDefault`) is labelled as such, never as the paper's:
 *
 *   emar: temperature 0.5 (--temperature; the paper's 0.1); topP 0.9, maxTokens 2048 (the paper's; set llm.topP to override)
 *   emar: temperature 0.1, topP 0.9, maxTokens 2048 (the paper's; set --temperature or llm.temperature to override)
 *   self-consistency: temperature 0.7 (lexcase default; the paper gives none; set llm.temperature to override)
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

/** The line, or undefined when the paper gives no sampling value (and lexcase sets none in its place). */
export function paperSamplingLine(
  system: string,
  paper: PaperSampling,
  llm: Partial<Record<SamplingKey, number>>,
  applied: readonly string[],
  o: SamplingSources,
): string | undefined {
  const keys = KEYS.filter((k) => paper[k] !== undefined);
  if (!keys.length) return undefined;
  const ours = (k: SamplingKey) => paper.lexcaseDefault?.includes(k) ?? false;
  const whose = (k: SamplingKey) => (ours(k) ? 'lexcase default' : "the paper's");
  const set = keys.filter((k) => !applied.includes(k)).map((k) => `${k} ${llm[k]} (${sourceOf(k, o)}; ${whose(k)} ${paper[k]})`);
  const how = (k: SamplingKey) => `${o.flags.includes(k) ? `${flagOf(k)} or ` : ''}llm.${k}`;
  const group = (own: SamplingKey[], label: string) =>
    own.length ? [`${own.map((k) => `${k} ${llm[k]}`).join(', ')} (${label}; set ${how(own[0])} to override)`] : [];
  const own = keys.filter((k) => applied.includes(k));
  const papers = group(
    own.filter((k) => !ours(k)),
    "the paper's",
  );
  const defaults = group(own.filter(ours), 'lexcase default; the paper gives none');
  return `${system}: ${[...set, ...papers, ...defaults].join('; ')}`;
}
