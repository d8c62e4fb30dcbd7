/**
 * The one list of agent systems: one line per system (its agents/<system>/plugin.ts). Importing
 * this module hands the list to eval (`useSystems`), which cannot import agents; everything per
 * system derives from it — `lexcase run <id>` and its help (src/cli), the report's section (eval/report),
 * the explorer's trace view and LLM-call inspector (the run's recorded traceKind, /api/info), the
 * `lexcase/agents/*` exports and the paper settings (agents/common/paper-settings.ts).
 * A new system: its folder with a plugin.ts, and one line here (docs/architecture.md).
 */
import { useSystems, type SystemPlugin } from '../eval/systems.js';
import { acalPlugin } from './acal/plugin.js';
import { baselinePlugin } from './case/baselines/plugin.js';
import { casePlugin } from './case/plugin.js';
import { emarPlugin } from './emar/plugin.js';
import { madPlugin } from './mad/plugin.js';
import { threeplyPlugin } from './threeply/plugin.js';

// biome-ignore format: one system per line, so a new system adds one line here (tests/toy-system.test.ts)
export const AGENT_SYSTEMS: readonly SystemPlugin[] = [
  casePlugin,
  baselinePlugin,
  madPlugin,
  acalPlugin,
  threeplyPlugin,
  emarPlugin,
];

useSystems(AGENT_SYSTEMS);

/** The plugin of an agent system by id or any name its runs recorded (undefined: none). */
export function agentSystem(name: string): SystemPlugin | undefined {
  return AGENT_SYSTEMS.find((p) => p.id === name) ?? AGENT_SYSTEMS.find((p) => p.matches(name));
}
