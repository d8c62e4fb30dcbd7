/**
 * What `lexcase demo --dir D` (and runDemo) may write to: the shared output-dir rule
 * (core/out-dir-rule.ts) with the demo's own kind. D may be new, empty, or a demo dir an earlier
 * demo made — holding nothing but the demo's entries (index/ and its build's lock and temp names,
 * report.md, report.json, recall-at-k.svg), each recognisably the demo's own: report.json of kind
 * "lexcase-demo", report.md starting "# lexcase demo", an SVG plot, a lexcase index. A user's
 * report.md, notes or any other file in D makes D refused before anything is written, so the demo
 * never overwrites what it did not make. Never the working directory or a parent of it, never
 * inside a lexcase index or run dir.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkOutputDir, listed } from '../../core/out-dir-rule.js';
import { INDEX_DIR } from '../../indexer/out-dir.js';
import { RUN_DIR } from '../../eval/run-dir-guard.js';
import { RECALL_PLOT_FILE } from '../../eval/plots/recall-plot-file.js';

export const DEMO_FILES = { index: 'index', reportMd: 'report.md', reportJson: 'report.json', plot: RECALL_PLOT_FILE } as const;

/** The index build's own names beside <dir>/index while it runs (lock, temp and old dirs). */
const BUILD_SIBLING = /^index\.(lock(\.break)?|tmp-\d+|old-\d+)$/;

function head(file: string, bytes = 4096): string | undefined {
  try {
    return readFileSync(file, 'utf8').slice(0, bytes);
  } catch {
    return undefined;
  }
}

/** Why `entry` of an existing dir is not the demo's own, or undefined when it is. */
function notTheDemos(dir: string, entry: string): string | undefined {
  const p = join(dir, entry);
  if (entry === DEMO_FILES.index) {
    // A lexcase index, or a directory without a manifest (the build step decides: empty, or refused).
    const isDir = (() => {
      try {
        return lstatSync(p).isDirectory();
      } catch {
        return false;
      }
    })();
    return isDir && (INDEX_DIR.is(p) || head(join(p, 'manifest.json')) === undefined) ? undefined : 'index is not a lexcase index';
  }
  if (BUILD_SIBLING.test(entry)) return undefined;
  if (entry === DEMO_FILES.reportJson) {
    try {
      return (JSON.parse(readFileSync(p, 'utf8')) as { kind?: unknown })?.kind === 'lexcase-demo' ? undefined : 'report.json is not a lexcase demo report';
    } catch {
      return 'report.json is not a lexcase demo report';
    }
  }
  if (entry === DEMO_FILES.reportMd) return head(p)?.startsWith('# lexcase demo') ? undefined : 'report.md is not a lexcase demo report';
  if (entry === DEMO_FILES.plot) return head(p)?.startsWith('<svg') ? undefined : `${DEMO_FILES.plot} is not a lexcase plot`;
  return 'foreign';
}

/** Throws OUT_DIR_REFUSED unless the demo may write to `dir` (see the module doc). */
export function checkDemoDir(dir: string): void {
  checkOutputDir(
    dir,
    {
      what: 'the demo',
      hint: 'choose a new or empty --dir, or the dir of an earlier demo',
      existing: (target, entries) => {
        const foreign = [...entries].sort().filter((e) => notTheDemos(target, e) === 'foreign');
        if (foreign.length) return { reason: `it is a non-empty directory that is not a lexcase demo dir (it holds ${listed(foreign)})` };
        for (const e of [...entries].sort()) {
          const why = notTheDemos(target, e);
          if (why) return { reason: `${why}, so the demo would overwrite a file it did not make` };
        }
        return undefined;
      },
    },
    [],
    [INDEX_DIR, RUN_DIR],
  );
}
