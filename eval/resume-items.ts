/**
 * A resume continues the same items: every item results.jsonl records must be one the command
 * selects now, with the gold label it was recorded with (and, for items whose id does not name
 * their content — 3-ply's triples —, the content checksum it was recorded with). Another data copy (`--data`,
 * LEXCASE_LEGALBENCH_DIR), a dataset whose rows were reordered or relabelled, keeps the config as it
 * was, so only the items can tell: before, such a resume ran the new items beside the old ones (the
 * report counting both) or scored the new ones against other gold labels, and exited 0. It is
 * refused with one RUN_INVALID naming a few items (eval/runner.ts). A grow (eval/run-grow.ts) keeps
 * every recorded item and its gold, so it passes.
 *
 * Each result records the checksum of what a model is shown of its item (`contentChecksum`: question,
 * options, text as loaded; eval/provenance.ts): a copy whose texts differ under the same ids and labels
 * is refused too. Records written before it (an older lexcase) are checked by id and gold only, and the
 * resume says so in one line. Rows not yet run may differ: they run as they are now, and config.json's
 * `provenance.contentChecksum` then describes the items as they are now. A run that records the data files it read
 * (config.json `dataFiles`: LegalBench, corpora/legalbench.ts) is checked by their checksums first
 * (`assertSameDataFiles`): a resume reading other bytes is refused naming both files — where each
 * was found (bundled, --data, $LEXCASE_LEGALBENCH_DIR), its path and sha256 —; the same bytes read
 * from another place pass, the resume's `changed` records where they were read from.
 */
import { errors } from '../core/errors.js';

const items = (n: number) => `${n} recorded item${n === 1 ? '' : 's'}`;
const HOW = 'the items (dataset, --data, split or limit) are not those the run recorded; resume with the same data, or use a new run dir';

type ItemKey = { gold: string; itemChecksum?: string; contentChecksum?: string };
const have = (n: number) => (n === 1 ? 'has' : 'have');

/**
 * Refuses a resume whose items are not those recorded: `recorded` are results.jsonl's records,
 * `current` the current selection's gold label (and content checksum, where the system records one;
 * and the checksum of the text a model is shown, `contentChecksum`) by item id. Returns how many
 * recorded items record no `contentChecksum` (written by an older lexcase), whose text is not checked.
 */
export function assertSameItems(runDir: string, recorded: Iterable<{ id: string } & ItemKey>, current: ReadonlyMap<string, ItemKey>): number {
  const outside: string[] = [];
  const relabelled: string[] = [];
  const changed: string[] = [];
  const edited: string[] = [];
  let unchecked = 0;
  for (const r of recorded) {
    const now = current.get(r.id);
    if (now === undefined) outside.push(r.id);
    else if (now.gold !== r.gold) relabelled.push(`${r.id}: "${r.gold}" recorded, "${now.gold}" now`);
    else if (r.itemChecksum && now.itemChecksum && r.itemChecksum !== now.itemChecksum) changed.push(r.id);
    else if (r.contentChecksum && now.contentChecksum && r.contentChecksum !== now.contentChecksum) edited.push(r.id);
    else if (!r.contentChecksum && now.contentChecksum) unchecked++;
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
  if (edited.length)
    throw errors.runInvalid(
      runDir,
      `${items(edited.length)} ${have(edited.length)} other text now under the same id and gold label (e.g. ${edited.slice(0, 3).join(', ')}; the question, options or text a model is shown was edited: ${edited.length === 1 ? 'its' : 'their'} contentChecksum differs): ${HOW}`,
    );
  return unchecked;
}

type DataFile = { task?: string; dataset?: string; split?: string; source?: string; file?: string; sha256?: string };
/**
 * Another split than the run recorded (a grow from --split val to all, which reads the same file: the
 * items are checked by run-grow.ts): the files compared by their bytes, whatever split each was read
 * for. Before, each recorded split was looked up under its own name, and the grow was refused with
 * "the command now reads no file: another data file (its sha256 differs)" for the same file.
 */
function sameFilesOtherSplits(
  runDir: string,
  recorded: Record<string, DataFile>,
  current: Record<string, DataFile>,
): Record<string, { from: unknown; to: unknown }> {
  const list = (d: Record<string, DataFile>) =>
    Object.entries(d)
      .map(([k, f]) => `${`${f?.task ?? f?.dataset ?? ''} ${k}`.trim()} from ${where(f)}`)
      .join(', ');
  const shas = (d: Record<string, DataFile>) => new Set(Object.values(d).map((f) => f?.sha256));
  const [was, now] = [shas(recorded), shas(current)];
  if (was.size !== now.size || [...was].some((h) => !now.has(h)))
    throw errors.runInvalid(runDir, `read ${list(recorded)}, the command now reads ${list(current)}: other data files (their sha256 differ); ${HOW}`);
  const moved: Record<string, { from: unknown; to: unknown }> = {};
  for (const [k, f] of Object.entries(current)) {
    const before = Object.values(recorded).find((r) => r?.sha256 === f?.sha256);
    if (before && f && (before.source !== f.source || before.file !== f.file))
      moved[`dataFiles.${k}`] = { from: `${before.source} ${before.file}`, to: `${f.source} ${f.file}` };
  }
  return moved;
}

const isDataFiles = (v: unknown): v is Record<string, DataFile> => !!v && typeof v === 'object' && !Array.isArray(v);
const where = (f: DataFile | undefined) => (f ? `${f.source ?? '?'} ${f.file ?? '?'} (sha256 ${f.sha256?.slice(0, 16) ?? '?'}…)` : 'no file');

/**
 * Refuses a resume that reads other data files than the run recorded (config.json `dataFiles`, by
 * split: another sha256, or a file the run did not read): names each, recorded and now. Returns the
 * files read from another place with the same bytes (`dataFiles.<split>`: from/to "<source> <file>"),
 * for the resume's `changed`. A run that records no `dataFiles` has nothing to check here.
 */
export function assertSameDataFiles(runDir: string, recorded: unknown, current: unknown): Record<string, { from: unknown; to: unknown }> {
  const moved: Record<string, { from: unknown; to: unknown }> = {};
  if (!isDataFiles(recorded) || !isDataFiles(current)) return moved;
  const [was, now] = [Object.keys(recorded).sort(), Object.keys(current).sort()];
  if (was.join('\n') !== now.join('\n')) return sameFilesOtherSplits(runDir, recorded, current);
  for (const k of new Set([...Object.keys(recorded), ...Object.keys(current)])) {
    const [was, now] = [recorded[k], current[k]];
    if (was?.sha256 !== now?.sha256) {
      const what = `${(was ?? now)?.task ?? (was ?? now)?.dataset ?? ''} ${k}`.trim();
      throw errors.runInvalid(runDir, `read ${what} from ${where(was)}, the command now reads ${where(now)}: another data file (its sha256 differs); ${HOW}`);
    }
    if (was && now && (was.source !== now.source || was.file !== now.file))
      moved[`dataFiles.${k}`] = { from: `${was.source} ${was.file}`, to: `${now.source} ${now.file}` };
  }
  return moved;
}
