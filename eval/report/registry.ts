/**
 * Report sections. The generic ones (summary, accuracy, accuracy by confidence, per-item metrics,
 * tool usage, tokens, failures) apply to every run; an agent system registers extra sections
 * (CASE: advocate evidence recall) with `registerReportSection`, optionally only for runs whose
 * config.system is one of `systems`.
 */
import type { RunData, SectionBuilder } from './types.js';

interface Registered {
  id: string;
  build: SectionBuilder;
  systems?: string[];
}

const extra: Registered[] = [];

export function registerReportSection(id: string, build: SectionBuilder, opts: { systems?: string[] } = {}): void {
  const i = extra.findIndex((r) => r.id === id);
  const entry = { id, build, systems: opts.systems };
  if (i >= 0) extra[i] = entry;
  else extra.push(entry);
}

export function registeredSections(run: RunData): SectionBuilder[] {
  const system = typeof run.config.config.system === 'string' ? run.config.config.system : undefined;
  return extra.filter((r) => !r.systems || (system !== undefined && r.systems.includes(system))).map((r) => r.build);
}
