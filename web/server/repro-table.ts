/**
 * A reproduction's table as the explorer shows it: table.json as `lexcase reproduce` last wrote it, unless a run of
 * its grid changed since (its results.jsonl no longer matches checksums.json: a grid run resumed or retried with the
 * command the reproduction lists). Then the table is made again from the runs as they are now, as the next
 * `lexcase reproduce` makes it (eval/reproduce/table.ts buildTable), with a `stale` line naming the runs; where it
 * cannot be (a recipe that changed or is not bundled, a run that resolves outside the runs root), table.json is
 * shown with a `stale` line saying it is older than its runs. Before 2026-12-05 the page showed table.json as it was:
 * a cell read 40.0 [19.8, 64.3] with ⚑ while the run it links to read 60.0 [35.7, 80.2] without, and nothing said so.
 */
import { loadRecipe } from '../../eval/reproduce/recipe.js';
import { changedSinceChecksums, readReproduction, runDirOf, sha256 } from '../../eval/reproduce/reproduction-dir.js';
import { buildTable } from '../../eval/reproduce/table.js';
import { servable, type RunEntry } from './runs.js';

/** `stored` (table.json), or the table made again from the runs with a `stale` line where a run changed since. */
export async function reproTableNow(run: RunEntry, stored: unknown): Promise<unknown> {
  if (!stored || typeof stored !== 'object') return stored;
  let changed: string[];
  try {
    changed = (await changedSinceChecksums(run.dir)).map((c) => c.rel);
  } catch {
    return stored;
  }
  if (!changed.length) return stored;
  const which = `${changed.join(', ')} changed after this reproduction last finished (checksums.json)`;
  try {
    const repro = await readReproduction(run.dir);
    if (repro) {
      const { recipe, text } = loadRecipe(repro.recipe);
      // every run dir it reads resolves inside the runs root, as every file the explorer serves
      if (sha256(text) === repro.recipeSha256 && recipe.runs.every((r) => servable(run.root, runDirOf(run.dir, r.id)))) {
        const table = await buildTable(run.dir, recipe, repro);
        return {
          ...table,
          stale: `${which}: this table is made from the runs as they are now, as \`lexcase reproduce\` will make it; table.json and table.md on disk are older until it runs`,
        };
      }
    }
  } catch {
    // the table as written, said to be older
  }
  return {
    ...(stored as Record<string, unknown>),
    stale: `${which}: this table is table.json as written then, not the runs as they are now; \`lexcase reproduce\` with the same arguments makes it again`,
  };
}
