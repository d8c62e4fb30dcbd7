/**
 * Report sections. The generic ones (summary, accuracy, accuracy by confidence, per-item metrics,
 * tool usage, tokens, failures) apply to every run; a run of an agent system also gets its system's
 * own section, which the system's plugin loads when asked (agents/<system>/plugin.ts `load()` →
 * `reportSection`; eval/systems.ts `systemReportSection`). `registerReportSection(id, build)` adds
 * a section outside the list: with `systems` (config.system values) for those runs, else for every
 * run — unless `id` is a section some list entry names, which then goes to that entry's runs only.
 */
import { log } from '../../core/log.js';
import { recordedSystemSpec, SYSTEMS, systemReportSection } from '../systems.js';

const SYSTEMS_SECTIONS = () => SYSTEMS.map((s) => s.reportSection).filter((x): x is string => x !== null);
import type { RunData, SectionBuilder } from './types.js';

interface Registered {
  id: string;
  build: SectionBuilder;
  systems?: string[];
}

const extra: Registered[] = [];

/**
 * A registration that replaces something says so on stderr: an earlier registration of the same id
 * with another builder (the later one wins), or, without `systems`, the own section of a listed system
 * (`case`, `mad`, …: its runs then get this one in its place). Before, both happened without a word.
 */
export function registerReportSection(id: string, build: SectionBuilder, opts: { systems?: string[] } = {}): void {
  const i = extra.findIndex((r) => r.id === id);
  if (i >= 0 && extra[i].build !== build)
    log.warn(`registerReportSection: section "${id}" was registered before; this registration replaces it (give a section of your own an id of its own)`);
  const owners = opts.systems ? [] : SYSTEMS.filter((s) => s.reportSection === id).map((s) => s.id);
  if (owners.length)
    log.warn(
      `registerReportSection: "${id}" is the report section of ${owners.join(', ')}: without \`systems\` this registration replaces it in the report of their runs`,
    );
  const entry = { id, build, systems: opts.systems };
  if (i >= 0) extra[i] = entry;
  else extra.push(entry);
}

/**
 * The sections of a run beyond the generic ones: its system's own section — the list entry whose
 * run config.json records it to be (`recordedSystemSpec`: lexcase's system that wrote it, never a
 * system of the caller's own that chose the same name) — and the registered ones (`systems`: by
 * config.system, the caller's own names).
 */
export async function registeredSections(run: RunData): Promise<SectionBuilder[]> {
  const system = typeof run.config.config.system === 'string' ? run.config.config.system : undefined;
  const listed = new Set(SYSTEMS_SECTIONS());
  const spec = recordedSystemSpec(run.config);
  const own = spec.reportSection;
  const registered = extra.filter((r) => (r.systems ? system !== undefined && r.systems.includes(system) : listed.has(r.id) ? r.id === own : true));
  const plugin = registered.some((r) => r.id === own) ? null : await systemReportSection(spec);
  return [...(plugin ? [plugin] : []), ...registered.map((r) => r.build)];
}
