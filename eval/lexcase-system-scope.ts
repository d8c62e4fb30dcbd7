/**
 * Which lexcase system a run is of, for runs whose code does not say it to `runExperiment` itself:
 * `lexcase run <id>` runs a plugin's `run()` inside `withLexcaseSystem(id, …)` (a system added as
 * its folder plus its line in agents/systems.ts need not pass `lexcaseSystem`). The runner records
 * it in config.json's `provenance.lexcaseSystem` (null outside: a system of the caller's own), and
 * the report gives a run its system's section by it (eval/systems.ts recordedSystemSpec).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string>();

/** Runs `fn` with the runs it starts recorded as runs of lexcase's system `id`. */
export function withLexcaseSystem<T>(id: string, fn: () => Promise<T>): Promise<T> {
  return scope.run(id, fn);
}

/** The lexcase system of the scope (withLexcaseSystem), undefined outside one. */
export function scopedLexcaseSystem(): string | undefined {
  return scope.getStore();
}
