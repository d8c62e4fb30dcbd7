/**
 * Provenance written into every run's config.json: lexcase version, git sha of the code that runs
 * (runGitSha: lexcase's own checkout, or the commit its dist/ was built from; 'unknown' when neither
 * is known — never fails), a checksum of the items run (ids and gold labels, so two runs can
 * be told apart when the split changed; with each item's content checksum where the system records
 * one: `itemChecksum`), a checksum of what a model is shown of them (`contentChecksum`: question,
 * options, text as loaded, so a copy edited under the same ids and labels is told apart), Node
 * version and timestamps.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { warnOnce } from '../core/log.js';
import { PACKAGE_ROOT, VERSION } from '../core/version.js';
import { readBuildStamp, RUNNING_BUILT_CODE, type BuildStamp } from './build-stamp.js';

/**
 * The git commit of lexcase's own checkout at `root` (with `-dirty` when tracked files differ), or
 * 'unknown'. Only a work tree whose top level is `root` counts: an installed package sits in
 * node_modules/lexcase, often inside the user's own repository, and git, walking up from there,
 * would answer with the user's commit — recorded as lexcase's until 2026-11-29.
 */
export function gitSha(root: string = PACKAGE_ROOT): string {
  const git = (args: string[]) => execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).toString();
  try {
    const [top, sha] = git(['rev-parse', '--show-toplevel', 'HEAD']).trim().split('\n');
    if (!top || realpathSync(top) !== realpathSync(root)) return 'unknown';
    if (!/^[0-9a-f]{7,64}$/.test(sha ?? '')) return 'unknown';
    let dirty = false;
    try {
      dirty = git(['status', '--porcelain', '--untracked-files=no']).trim().length > 0;
    } catch {
      /* unknown dirtiness: report the sha alone */
    }
    return dirty ? `${sha}-dirty` : sha;
  } catch {
    return 'unknown';
  }
}

/**
 * lexcase's commit for the code that runs now (what a run records as `gitSha`). From the sources
 * (tsx, vitest): the checkout's (gitSha). Built code (dist/, which git does not track) with a build
 * stamp (eval/build-stamp.ts): the commit it was built from — an installed package has no checkout
 * of its own (gitSha 'unknown'), and a checkout moved to another commit after its build runs the
 * build's code: then `checkoutGitSha` is the checkout's commit, and (for a build of a clean
 * checkout) a warning says to rebuild.
 * Without a stamp (a dist/ built before stamps existed): the checkout's, as before.
 */
export function runGitSha(o: { checkout?: string; stamp?: BuildStamp } = {}): { gitSha: string; checkoutGitSha?: string } {
  const checkout = o.checkout ?? gitSha();
  const stamp = 'stamp' in o ? o.stamp : RUNNING_BUILT_CODE ? readBuildStamp() : undefined;
  if (!stamp || stamp.gitSha === checkout) return { gitSha: checkout };
  if (checkout === 'unknown') return { gitSha: stamp.gitSha };
  // a build of uncommitted changes ('-dirty') may well be the commit made of them since: no warning then
  if (!stamp.gitSha.endsWith('-dirty'))
    warnOnce(
      'provenance.staleBuild',
      () =>
        `lexcase's dist/ was built at commit ${stamp.gitSha} (${stamp.builtAt}); the checkout is at ${checkout}: the run records the build's commit, the code that runs (\`npm run build\` to run the checkout's)`,
    );
  return { gitSha: stamp.gitSha, checkoutGitSha: checkout };
}

/**
 * The checksum of what one item holds beyond its id and gold, for items whose id does not name their
 * content (3-ply's generated triples, `<mode>-NNN`): sha256 of its JSON. Recorded per result
 * (`itemChecksum`), so a comparison does not pair two different items that share an id.
 */
export function itemChecksum(content: unknown): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(content)).digest('hex')}`;
}

/**
 * What a model is shown of an item, as loaded: a question's stem, question and options; a task
 * example's text; any other item (3-ply's triples, retrieval topics) whole but for its id, `meta`
 * (never shown) and `kind` (EMAR's tag of the item's source). The same question run by two systems
 * (CASE's `Question`, EMAR's tagged one) is the same content.
 */
export function shownContent(item: object): unknown {
  const o = item as Record<string, unknown>;
  if (typeof o.question === 'string' && Array.isArray(o.choices)) return { prompt: o.prompt ?? '', question: o.question, choices: o.choices };
  if (typeof o.text === 'string' && 'label' in o) return { text: o.text };
  const { id: _id, meta: _meta, kind: _kind, ...rest } = o;
  return rest;
}

/**
 * The checksum of what the model is shown of one item (`shownContent`), recorded with each result
 * (`contentChecksum`): a resume or a comparison tells an item whose text was edited under the same
 * id and gold label from the one recorded.
 */
export function contentChecksum(item: object): string {
  return itemChecksum(shownContent(item));
}

/**
 * sha256 over the items' ids and the checksums of what a model is shown of each (`contentChecksum`),
 * in order: config.json's `provenance.contentChecksum`, beside `datasetChecksum` (ids and gold labels only).
 */
export function datasetContentChecksum(
  items: { id: string; contentChecksum?: string }[],
  sum: (item: never) => string | undefined = (it) => (it as { contentChecksum?: string }).contentChecksum,
): string | undefined {
  const h = createHash('sha256');
  for (const it of items) {
    const c = sum(it as never);
    if (c === undefined) return undefined;
    h.update(`${it.id}\t${c}\n`);
  }
  return `sha256:${h.digest('hex')}`;
}

/** sha256 over the items' ids and gold labels (and content checksums, where given), in order. */
export function datasetChecksum(items: { id: string }[], gold?: (item: never) => string, content?: (item: never) => string | undefined): string {
  const h = createHash('sha256');
  for (const it of items) {
    h.update(it.id);
    h.update('\t');
    if (gold) h.update(String(gold(it as never)));
    const c = content?.(it as never);
    if (c !== undefined) h.update(`\t${c}`);
    h.update('\n');
  }
  return `sha256:${h.digest('hex')}`;
}

export interface Provenance {
  lexcaseVersion: string;
  /** lexcase's commit; of a merged run whose shards ran different code, shard 1's (all of them: `gitShas`). */
  gitSha: string;
  /**
   * A merged run whose shards ran different code (eval/reproduce/merge-config.ts mergedGitShas):
   * each git sha with the shards that ran it and their items, in shard order. Absent otherwise.
   */
  gitShas?: { gitSha: string; shards: number[]; items: number }[];
  /** The checkout's commit where it differs from the build's the run recorded as `gitSha` (runGitSha: dist/ built at another commit). */
  checkoutGitSha?: string;
  node: string;
  /** sha256 over the items' ids and gold labels (3-ply's: and each triple's `itemChecksum`). */
  datasetChecksum: string;
  /**
   * sha256 over the items' ids and what a model is shown of each (`datasetContentChecksum`: question,
   * options, text as loaded): tells a dataset whose texts were edited under the same ids and labels.
   * Absent in a run dir written before 2026-12-01.
   */
  contentChecksum?: string;
  items: number;
  createdAt: string;
  /**
   * The id of lexcase's system (eval/systems.ts list entry) that ran it — `runExperiment`'s
   * `lexcaseSystem`, or the `lexcase run <id>` around it — or null: a system of the caller's own,
   * whatever name its config gives it. Absent in a run dir written before 2026-12-01.
   */
  lexcaseSystem?: string | null;
}

export function provenance(items: { id: string }[], gold?: (item: never) => string, content?: (item: never) => string | undefined): Provenance {
  const shown = datasetContentChecksum(items, (it: { id: string }) => contentChecksum(it));
  return {
    lexcaseVersion: VERSION,
    ...runGitSha(),
    node: process.version,
    datasetChecksum: datasetChecksum(items, gold, content),
    ...(shown ? { contentChecksum: shown } : {}),
    items: items.length,
    createdAt: new Date().toISOString(),
  };
}
