/**
 * Provenance written into every run's config.json: lexcase version, git sha of the code that runs
 * (runGitSha: lexcase's own checkout, or the commit its dist/ was built from; 'unknown' when neither
 * is known — never fails), a checksum of the items run (ids and gold labels, so two runs can
 * be told apart when the split changed; with each item's content checksum where the system records
 * one: `itemChecksum`), Node version and timestamps.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { log } from '../core/log.js';
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

let warnedStale = false;

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
  if (!warnedStale && !stamp.gitSha.endsWith('-dirty'))
    log.warn(
      `lexcase's dist/ was built at commit ${stamp.gitSha} (${stamp.builtAt}); the checkout is at ${checkout}: the run records the build's commit, the code that runs (\`npm run build\` to run the checkout's)`,
    );
  warnedStale = true;
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
  datasetChecksum: string;
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
  return {
    lexcaseVersion: VERSION,
    ...runGitSha(),
    node: process.version,
    datasetChecksum: datasetChecksum(items, gold, content),
    items: items.length,
    createdAt: new Date().toISOString(),
  };
}
