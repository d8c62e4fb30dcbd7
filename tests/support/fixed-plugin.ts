/**
 * A system of one's own for tests of `lexcase run <id>` (src/cli/commands/run-plugins.ts): a plugin with
 * the simpler `run` (no cliRun) that answers `answer` for every item, through runExperiment and with
 * `o.whileLocked`, as docs/architecture.md "How to add an agent system" shows.
 */
import { runExperiment } from '../../eval/runner.js';
import type { PluginRunOptions, SystemPlugin } from '../../eval/systems.js';

type Cli = NonNullable<SystemPlugin['cli']>;

export function fixedAnswerPlugin(o: {
  id: string;
  items: { id: string; answer: string }[];
  answer: string;
  flags?: Cli['flags'];
  /** what config.json records beside `system` (the flags it was given, say) */
  config?: (flags: Record<string, unknown>) => Record<string, unknown>;
}): SystemPlugin & { cli: Cli } {
  return {
    id: o.id,
    name: o.id,
    variants: [],
    aliases: [],
    matches: (s: string) => s === o.id,
    run: { takesIndex: false, takesData: false, limit: 'limit' },
    traceKind: 'other',
    reportSection: null,
    method: () => null,
    k: () => null,
    headline: [],
    paper: {},
    cli: { description: `answers ${o.answer}`, defaultRunDir: `runs/${o.id}`, llm: false, flags: o.flags ?? [] },
    load: async () => ({
      run: async (p: PluginRunOptions) => {
        const r = await runExperiment({
          runDir: p.runDir,
          items: o.items,
          gold: (q) => q.answer,
          seed: 13,
          config: { system: o.id, ...(o.config?.(p.flags) ?? {}) },
          makeContext: (_q, { seed }) => ({ seed, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} }),
          system: async () => ({ prediction: o.answer, trace: {} }),
          whileLocked: p.whileLocked,
        });
        return { ran: r.ran, skipped: r.skipped, failed: r.failed };
      },
    }),
  } as unknown as SystemPlugin & { cli: Cli };
}
