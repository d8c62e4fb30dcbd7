/**
 * Where `lexcase serve --api` and `lexcase mcp --http` take their bearer token from: the
 * environment variable LEXCASE_API_TOKEN, or `--token-file FILE` (its first line). Both keep the
 * token out of the process's command line, which every user of the machine can read (`ps`,
 * /proc/PID/cmdline). `--token SECRET` still works, for scripts written before, but says so on
 * stderr and is left out of --help and the docs.
 */
import { Option, type Command } from 'commander';
import { errors } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { readRegularFileSync } from '../../core/read-regular.js';

export interface TokenFlags {
  token?: string;
  tokenFile?: string;
}

export interface ApiToken {
  token?: string;
  /** Where it came from, for messages: `--token-file FILE`, `LEXCASE_API_TOKEN` or `--token`. */
  source: string;
}

/** Adds --token-file (and the hidden --token) to a command; `what` says when they apply ("with --api"). */
export function addTokenOptions(cmd: Command, what: string): Command {
  return cmd
    .option(
      '--token-file <file>',
      `${what}: require "Authorization: Bearer <token>" with the token in FILE (its first line; needed off loopback; default: $LEXCASE_API_TOKEN)`,
    )
    .addOption(new Option('--token <secret>', 'the token on the command line: visible to every user in ps; use LEXCASE_API_TOKEN or --token-file').hideHelp());
}

export const TOKEN_HINT =
  'set LEXCASE_API_TOKEN, or put the token in a file readable only by you and give --token-file FILE (e.g. openssl rand -hex 24 > FILE; chmod 600 FILE)';

/** The token: --token-file, else --token (with a warning), else LEXCASE_API_TOKEN; none when none is given. */
export function apiToken(flags: TokenFlags, env: NodeJS.ProcessEnv = process.env): ApiToken {
  if (flags.tokenFile !== undefined && flags.token !== undefined) throw errors.usage('give the token once: --token-file or --token, not both');
  if (flags.tokenFile !== undefined) {
    let text: string;
    try {
      text = readRegularFileSync(flags.tokenFile);
    } catch (e) {
      throw errors.invalidInput('--token-file', `cannot read ${flags.tokenFile} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    const token = text.split(/\r?\n/)[0].trim();
    if (!token) throw errors.invalidInput('--token-file', `${flags.tokenFile} is empty; its first line is the token`);
    return { token, source: '--token-file' };
  }
  if (flags.token !== undefined) {
    log.warn(`--token puts the token on the command line, where every user of this machine can read it (ps, /proc); ${TOKEN_HINT}`);
    return { token: flags.token, source: '--token' };
  }
  return { token: env.LEXCASE_API_TOKEN || undefined, source: 'LEXCASE_API_TOKEN' };
}
