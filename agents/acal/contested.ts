/**
 * The items whose argument graph was contested after the run (`lexcase acal contest`, the explorer:
 * the graph's `revision` > 0), read from `<runDir>/acal/<itemId>.graph.json`. A contest recomputes
 * the graph's verdict but leaves results.jsonl as the run wrote it, so every figure of the run
 * (accuracy, macro-F1, the decision counts) is over the verdicts the run reached: report.md's ACAL
 * section says how many graphs were changed since and which now give another verdict (before, it
 * said nothing, while the explorer showed a contested item's new verdict beside the run's figures).
 */
import { existsSync } from 'node:fs';
import type { ResultRecord } from '../../eval/types.js';
import { graphPath, readGraph } from './graph/store.js';

export interface ContestedGraphs {
  /** Items whose graph is at a revision after the run's. */
  items: number;
  /** Items with a graph file. */
  of: number;
  /** Contested items whose graph now gives another verdict than results.jsonl records. */
  changed: { id: string; run: string | null; now: string }[];
  /** Graph files that could not be read (left out of the counts). */
  unreadable: number;
}

/** The run's contested graphs; undefined when none was contested (and every graph could be read). */
export function contestedGraphs(runDir: string, results: readonly ResultRecord[]): ContestedGraphs | undefined {
  const c: ContestedGraphs = { items: 0, of: 0, changed: [], unreadable: 0 };
  for (const r of results) {
    if (!existsSync(graphPath(runDir, r.id))) continue;
    c.of++;
    let graph;
    try {
      graph = readGraph(runDir, r.id);
    } catch {
      c.unreadable++;
      continue;
    }
    if (graph.revision === 0) continue;
    c.items++;
    const now = graph.result?.verdict;
    if (now !== undefined && now !== r.prediction) c.changed.push({ id: r.id, run: r.prediction, now });
  }
  return c.items || c.unreadable ? c : undefined;
}

/** report.md's line: "**Contested after the run:** 1 of 12 items' argument graphs … (hearsay-test-0: No → Yes) …". */
export function contestedLine(c: ContestedGraphs): string {
  const shown = c.changed.slice(0, 5).map((x) => `${x.id}: ${x.run ?? 'no verdict'} → ${x.now}`);
  const more = c.changed.length > shown.length ? `, and ${c.changed.length - shown.length} more` : '';
  const changed = c.changed.length
    ? `; ${c.changed.length} of them now give${c.changed.length === 1 ? 's' : ''} another verdict than the run recorded (${shown.join('; ')}${more})`
    : '; none gives another verdict than the run recorded';
  const unreadable = c.unreadable ? ` ${c.unreadable} graph file${c.unreadable === 1 ? '' : 's'} could not be read.` : '';
  return (
    (c.items
      ? `**Contested after the run:** ${c.items} of ${c.of} items' argument graphs were changed by \`lexcase acal contest\` (\`acal/audit.jsonl\`)${changed}. ` +
        'The figures above are the verdicts the run reached (results.jsonl); a contested verdict is in its graph file and the explorer.'
      : '') + unreadable
  ).trim();
}
