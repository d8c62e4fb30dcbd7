/**
 * A resume continues the same items: every item results.jsonl records must be one the command
 * selects now, with the gold label it was recorded with (and, for items whose id does not name
 * their content — 3-ply's triples —, the content checksum it was recorded with). Another data copy (`--data`,
 * LEXCASE_LEGALBENCH_DIR), a dataset whose rows were reordered or relabelled, keeps the config as it
 * was, so only the items can tell: before, such a resume ran the new items beside the old ones (the
 * report counting both) or scored the new ones against other gold labels, and exited 0. It is
 * refused with one RUN_INVALID naming a few items (eval/runner.ts). A grow (eval/run-grow.ts) keeps
 * every recorded item and its gold, so it passes.
 */
import { errors } from '../core/errors.js';

const items = (n: number) => `${n} recorded item${n === 1 ? '' : 's'}`;
const HOW = 'the items (dataset, --data, split or limit) are not those the run recorded; resume with the same data, or use a new run dir';

type ItemKey = { gold: string; itemChecksum?: string };
const have = (n: number) => (n === 1 ? 'has' : 'have');

/**
 * Refuses a resume whose items are not those recorded: `recorded` are results.jsonl's records,
 * `current` the current selection's gold label (and content checksum, where the system records one) by item id.
 */
export function assertSameItems(runDir: string, recorded: Iterable<{ id: string } & ItemKey>, current: ReadonlyMap<string, ItemKey>): void {
  const outside: string[] = [];
  const relabelled: string[] = [];
  const changed: string[] = [];
  for (const r of recorded) {
    const now = current.get(r.id);
    if (now === undefined) outside.push(r.id);
    else if (now.gold !== r.gold) relabelled.push(`${r.id}: "${r.gold}" recorded, "${now.gold}" now`);
    else if (r.itemChecksum && now.itemChecksum && r.itemChecksum !== now.itemChecksum) changed.push(r.id);
  }
  if (outside.length)
    throw errors.runInvalid(runDir, `holds ${items(outside.length)} the command does not select (e.g. ${outside.slice(0, 3).join(', ')}): ${HOW}`);
  if (relabelled.length)
    throw errors.runInvalid(
      runDir,
      `${items(relabelled.length)} ${have(relabelled.length)} another gold label now (e.g. ${relabelled.slice(0, 3).join('; ')}): ${HOW}`,
    );
  if (changed.length)
    throw errors.runInvalid(
      runDir,
      `${items(changed.length)} ${have(changed.length)} other content now under the same id (e.g. ${changed.slice(0, 3).join(', ')}; ${changed.length === 1 ? 'its' : 'their'} itemChecksum differs): ${HOW}`,
    );
}
