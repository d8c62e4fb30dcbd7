/**
 * Report sections. The generic ones (summary, accuracy, accuracy by confidence, per-item metrics,
 * tool usage, tokens, failures) apply to every run; an agent system registers extra sections
 * (CASE: advocate evidence recall) with `registerReportSection(id, build)`. A run gets the section
 * its system's entry in the system list names (eval/systems.ts `reportSection`); `systems` (config.system
 * values) is for a section outside the list, and a section registered with neither applies to every run.
 */
import { SYSTEMS, systemSpec } from '../systems.js';

const SYSTEMS_SECTIONS = () => SYSTEMS.map((s) => s.reportSection).filter((x): x is string => x !== null);
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
  const listed = new Set(SYSTEMS_SECTIONS());
  const own = system !== undefined ? systemSpec(system).reportSection : null;
  return extra
    .filter((r) => (r.systems ? system !== undefined && r.systems.includes(system) : listed.has(r.id) ? r.id === own : true))
    .map((r) => r.build);
}
