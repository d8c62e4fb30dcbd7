/**
 * The options a user gave a command on its command line, written back as arguments (`--k1 1.2`,
 * `--dense-query-words 24`, `--no-title`), so a command the CLI prints for them to run next
 * (the fusion sweep's held-out evaluation) carries every setting they ran with, not only the ones
 * the printing code knows of. Options set by default, by the environment or by a config file are
 * left to those again.
 */
import type { Command, Option } from 'commander';

/** `cmd`'s options given on its command line, as arguments, except those whose attribute names are in `except`. */
export function givenArgs(cmd: Command, except: readonly string[]): string[] {
  const out: string[] = [];
  for (const o of cmd.options as readonly Option[]) {
    const key = o.attributeName();
    if (except.includes(key) || cmd.getOptionValueSource(key) !== 'cli') continue;
    const v = cmd.getOptionValue(key) as unknown;
    const flag = o.long ?? o.short;
    if (!flag) continue;
    if (o.negate) {
      if (v === false) out.push(flag);
    } else if (typeof v === 'boolean') {
      if (v) out.push(flag);
    } else if (v !== undefined) out.push(flag, Array.isArray(v) ? v.join(',') : typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  return out;
}
