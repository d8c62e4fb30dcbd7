/**
 * Run discovery under the --runs root. A run is a directory with a config.json (written by the
 * experiment runner) or an acal/ folder of saved argument graphs. Runs are addressed by their path
 * relative to the root ("." for the root itself); a request naming anything that is not in the
 * discovered list is a 404, so no request can reach a path outside the root. Symbolic links are
 * followed only while they resolve inside the root (realpath): a linked directory, run file or
 * graph file that resolves outside it is neither listed nor served.
 */
import { plannedItems } from '../../eval/run-planned.js';
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { readRegularFileSync } from '../../core/read-regular.js';
import { join, relative, resolve, sep } from 'node:path';
import { acalDir } from '../../agents/acal/graph/store.js';
import { readResults } from '../../eval/run-dir.js';
import { agentSystem } from '../../agents/systems.js';
import { recordedSystemSpec, recordedTraceKind, type TraceKind } from '../../eval/systems.js';
import { notFound } from '../../serve/http/http-util.js';
import type { RunKind } from '../common/run-summary-types.js';

/** The systems whose runs the CASE views open: CASE and its baselines, under any name their runs recorded (`baseline`, `baseline/<mode>`). */
const CASE_VIEW: ReadonlySet<string> = new Set(['case', 'baseline']);

/**
 * The system whose views a run opens: the one its config.json records as its writer
 * (`provenance.lexcaseSystem`: a system of the user's own named "case" is none of CASE's); a run dir
 * from before that record, the system its `system` names.
 */
function caseViewId(file: Record<string, unknown> | undefined, system: string | undefined): string {
  const prov = file?.provenance;
  if (prov && typeof prov === 'object' && 'lexcaseSystem' in prov) return recordedSystemSpec(file ?? {}).id;
  return agentSystem(system ?? '')?.id ?? '';
}

export interface RunEntry {
  id: string;
  dir: string;
  /** The runs root, resolved (realpath): every file served from this run resolves inside it. */
  root: string;
  /** "case" for CASE (and baseline) runs, "acal" for runs with argument graphs, else "run". */
  kind: RunKind;
  system?: string;
  /** The trace view of the system that wrote the run (eval/systems.ts recordedTraceKind): a system of the user's own named "case" gets 'other'; absent when the run recorded no system. */
  traceKind?: TraceKind;
  mode?: string;
  dataset?: string;
  items: number;
  /** Items config.json planned (provenance.items); absent when not recorded (eval/run-planned.ts). */
  planned?: number;
  /** Fewer items than planned: a killed or interrupted run. */
  partial?: boolean;
  /** Why results.jsonl could not be read (a malformed line before the last, as `lexcase report` says it); absent when it was read. */
  resultsProblem?: string;
  correct: number;
  graphs: number;
  /** The id of the reproduction dir whose grid this run belongs to. */
  parent?: string;
}

const MAX_DEPTH = 3;
const MAX_RUNS = 500;
const SKIP = new Set(['node_modules', '.git']);
/** An index dir (its manifest.json) holds sparse/, dense/, docs/ — never runs; a run may be named `dense`. */
const isIndexDir = (dir: string): boolean => existsSync(join(dir, 'manifest.json'));

/** True when `path` exists and resolves (following every link) to `realRoot` or below it. */
export function resolvesInside(realRoot: string, path: string): boolean {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return false;
  }
  return real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
}

/** A run's file may be read or written: it is absent, or it resolves inside the root. */
export const servable = (realRoot: string, path: string): boolean => !existsSync(path) || resolvesInside(realRoot, path);

/** The run's graph files (names) that resolve inside the root. */
export function graphFiles(realRoot: string, dir: string): string[] {
  const d = acalDir(dir);
  if (!existsSync(d) || !resolvesInside(realRoot, d)) return [];
  try {
    return readdirSync(d).filter((f) => f.endsWith('.graph.json') && resolvesInside(realRoot, join(d, f)));
  } catch {
    return [];
  }
}

/** Files a run's endpoints read or write directly; a run with one of them linked outside the root is not listed. */
const RUN_FILES = ['config.json', 'results.jsonl', 'traces', 'acal', join('acal', 'audit.jsonl')];

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readRegularFileSync(file));
  } catch {
    return undefined;
  }
}

async function describe(root: string, dir: string): Promise<RunEntry | undefined> {
  if (!RUN_FILES.every((f) => servable(root, join(dir, f)))) return undefined;
  const hasConfig = existsSync(join(dir, 'config.json'));
  const graphs = graphFiles(root, dir).length;
  // a `lexcase reproduce` directory: its table.json (paper vs lexcase) is the thing to show
  const reproduction = !hasConfig && existsSync(join(dir, 'reproduction.json')) && servable(root, join(dir, 'reproduction.json'));
  if (!hasConfig && graphs === 0 && !reproduction) return undefined;
  if (reproduction) {
    const r = readJson(join(dir, 'reproduction.json')) ?? {};
    const rel = relative(root, dir).split(sep).join('/') || '.';
    return {
      id: rel,
      dir,
      root,
      kind: 'run',
      system: 'reproduce',
      dataset: typeof r.recipe === 'string' ? r.recipe : undefined,
      items: 0,
      correct: 0,
      graphs: 0,
    };
  }
  const file = readJson(join(dir, 'config.json'));
  const cfg = (file?.config ?? {}) as Record<string, unknown>;
  let items = 0;
  let correct = 0;
  let resultsProblem: string | undefined;
  try {
    const r = await readResults(dir);
    const byId = new Map(r.records.map((x) => [x.id, x]));
    items = byId.size;
    for (const x of byId.values()) if (x.correct) correct++;
  } catch (e) {
    // unreadable results: listed with 0 items and the reason (never as a run that merely stopped early)
    resultsProblem = (e as Error).message;
  }
  const system = typeof cfg.system === 'string' ? cfg.system : undefined;
  const rel = relative(root, dir).split(sep).join('/') || '.';
  return {
    id: rel,
    dir,
    root,
    kind: graphs > 0 ? 'acal' : CASE_VIEW.has(caseViewId(file, system)) ? 'case' : 'run',
    system,
    ...(system ? { traceKind: recordedTraceKind(file ?? {}) } : {}),
    mode: typeof cfg.mode === 'string' ? cfg.mode : undefined,
    dataset: typeof cfg.dataset === 'string' ? cfg.dataset : typeof cfg.task === 'string' ? cfg.task : undefined,
    items,
    ...(resultsProblem ? { resultsProblem } : planned(file, items)),
    correct,
    graphs,
  };
}

/** `planned` and `partial` when config.json records the planned count. */
function planned(file: unknown, items: number): Pick<RunEntry, 'planned' | 'partial'> {
  const p = plannedItems(file, items);
  return p.planned === null ? {} : { planned: p.planned, partial: p.partial };
}

/**
 * The runs the runs table lists (the explorer's /api/runs/summary, /v1/runs): every run, one with no
 * result line yet included (n 0), save an ACAL dir of saved graphs with no results (its graphs view lists it).
 */
export const inRunsTable = (r: RunEntry): boolean => r.kind !== 'acal' || r.items > 0;

/** The most runs a listing holds (the explorer's runs list, /v1/runs); `listRunsWithin` says when there are more. */
export const RUNS_LISTED = MAX_RUNS;

export async function listRuns(rootDir: string): Promise<RunEntry[]> {
  return (await listRunsWithin(rootDir)).runs;
}

/** Folders at the listing's depth limit that hold folders it did not search: how many, and the first few (paths under the root). */
export interface NotSearched {
  depth: number;
  dirs: number;
  examples: string[];
}

/** The folders a walk of `dir` enters, in name order: not node_modules or .git, and (statSync follows links) only those resolving inside the root. */
function childFolders(root: string, dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names
    .filter((n) => !SKIP.has(n))
    .map((n) => join(dir, n))
    .filter((p) => {
      try {
        return statSync(p).isDirectory() && resolvesInside(root, p);
      } catch {
        return false;
      }
    });
}

/** "3 folders 3 levels under the runs directory hold folders that were not searched (e.g. a/b/c): serve --runs on a folder nearer the runs to list them". */
export function notSearchedText(n: NotSearched): string {
  return `${n.dirs} ${n.dirs === 1 ? 'folder' : 'folders'} ${n.depth} levels under the runs directory ${n.dirs === 1 ? 'holds' : 'hold'} folders that were not searched for runs (e.g. ${n.examples.join(', ')}): runs below them are not listed; start the server with --runs on a folder nearer them`;
}

/**
 * The runs under `rootDir` (the first RUNS_LISTED found) and whether there are more: a listing that was cut says so,
 * and so does one that stopped at MAX_DEPTH above folders it did not search (`notSearched`; before, a run four levels
 * down was missing from every list with no word). A reproduction's grid runs (`<repro>/runs/<id>`) are searched at
 * any depth: `serve --runs .` above `runs/reproduce-x/` listed the reproduction and none of its cells.
 */
export async function listRunsWithin(rootDir: string): Promise<{ runs: RunEntry[]; truncated: boolean; notSearched?: NotSearched }> {
  let root: string;
  try {
    root = realpathSync(resolve(rootDir));
  } catch {
    return { runs: [], truncated: false };
  }
  const out: RunEntry[] = [];
  let truncated = false;
  const cut: string[] = [];
  const walk = async (dir: string, depth: number, parent?: string): Promise<void> => {
    if (truncated) return;
    const e = await describe(root, dir);
    if (e && out.length >= MAX_RUNS) {
      truncated = true;
      return;
    }
    if (e) {
      if (parent) e.parent = parent;
      out.push(e);
      if (e.system !== 'reproduce') return; // a run's own folders are not searched for more runs (a reproduction's are: its grid's runs)
    }
    if (isIndexDir(dir)) return;
    if (depth >= MAX_DEPTH && e?.system !== 'reproduce') {
      if (childFolders(root, dir).length) cut.push(relative(root, dir).split(sep).join('/'));
      return;
    }
    for (const p of childFolders(root, dir)) {
      // a reproduction's folders get a depth of their own: its grid runs lie two below it (runs/<id>)
      await walk(p, e?.system === 'reproduce' ? Math.min(depth + 1, MAX_DEPTH - 1) : depth + 1, e?.system === 'reproduce' ? e.id : parent);
    }
  };
  await walk(root, 0);
  const notSearched = cut.length ? { notSearched: { depth: MAX_DEPTH, dirs: cut.length, examples: cut.slice(0, 3) } } : {};
  return { runs: out, truncated, ...notSearched };
}

export async function findRun(rootDir: string | undefined, id: string): Promise<RunEntry> {
  if (!rootDir) throw notFound('this server was started without --runs');
  const run = (await listRuns(rootDir)).find((r) => r.id === id) ?? (await runBeyondListing(rootDir, id));
  if (!run) throw notFound(`no run "${id}" under the runs directory`);
  return run;
}

/** A run the listing left out (more than RUNS_LISTED under the root), found by its id (its path under the root). */
async function runBeyondListing(rootDir: string, id: string): Promise<RunEntry | undefined> {
  let root: string;
  try {
    root = realpathSync(resolve(rootDir));
  } catch {
    return undefined;
  }
  const dir = join(root, id);
  if (id.split(/[\\/]/).includes('..') || !resolvesInside(root, dir)) return undefined;
  const e = await describe(root, dir);
  return e?.id === id ? e : undefined;
}
