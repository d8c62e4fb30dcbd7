/**
 * A resume over the same index at another path. An agent run (CASE, its baselines, MAD, ACAL's RAG)
 * records the index it searched twice in config.json: where it was (`index`, a path) and what it
 * holds (`indexContent`: corpus name, checksum, passages, analyzer, dense vector settings —
 * indexer/manifest.ts). What it holds decides the results; where it was does not: an index moved,
 * copied, or rebuilt from the same corpus with the same settings in a clone elsewhere is the same
 * index. Before, a resume with `--index NEWPATH` over it was refused (`field "index" differs`) and
 * the run's finished items could only be thrown away.
 *
 * `movedIndex(recorded, current)`: when both configs record the index's content and the paths differ,
 * the recorded config with the new path (so the comparison reads the content alone: another
 * content is still refused, naming `indexContent`) and the move, for the resume's `changed` and its
 * one line `index moved: OLD → NEW (same checksums)`. A run dir an older lexcase wrote without
 * `indexContent` keeps its path compared: nothing else there says the index is the same.
 */

export interface IndexMove {
  /** The recorded config with the current path: compared, the two differ by content only. */
  recorded: Record<string, unknown>;
  /** The path recorded at the run's start and the one given now; undefined: the same path, or nothing to compare by content. */
  move?: { from: string; to: string };
}

export function movedIndex(recorded: Record<string, unknown>, current: Record<string, unknown>): IndexMove {
  const [from, to] = [recorded.index, current.index];
  if (typeof from !== 'string' || typeof to !== 'string' || from === to) return { recorded };
  if (recorded.indexContent === undefined || recorded.indexContent === null || current.indexContent === undefined) return { recorded };
  return { recorded: { ...recorded, index: to }, move: { from, to } };
}

/** The line a resume over a moved index prints (once, when it is accepted: the content compared equal). */
export const indexMovedText = (runDir: string, move: { from: string; to: string }): string =>
  `resuming ${runDir}: index moved: ${move.from} → ${move.to} (same checksums: the index holds what the run recorded in indexContent)`;
