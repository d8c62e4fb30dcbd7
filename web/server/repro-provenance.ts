/**
 * Provenance of a `lexcase reproduce` dir, from its own files only: reproduction.json (recipe and
 * its sha256, model, limit, shard, dates, each run's argv), checksums.json (sha256 of each run's
 * results file) and each grid run's config.json (lexcase version, git commit, Node, the index's
 * corpus and checksum, the model it used — "scripted"/"mock" when so, none for retrieval runs).
 * The commands are shell-quoted `lexcase …` lines that paste into a shell as they are.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readConfig } from '../../eval/run-dir.js';
import { modelOf } from '../../eval/systems.js';
import { readRegularFile } from '../../core/read-regular.js';
import { shellWord } from '../../core/shell-word.js';
import { servable, type RunEntry } from './runs.js';
import type { ReproProvenance } from '../common/run-summary-types.js';

export type { ReproProvenance } from '../common/run-summary-types.js';

const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

async function readJson(root: string, file: string): Promise<Record<string, unknown> | null> {
  if (!existsSync(file) || !servable(root, file)) return null;
  try {
    return JSON.parse(await readRegularFile(file));
  } catch {
    return null;
  }
}

export async function reproProvenance(run: RunEntry): Promise<ReproProvenance> {
  const r = (await readJson(run.root, join(run.dir, 'reproduction.json'))) ?? {};
  const sums = (await readJson(run.root, join(run.dir, 'checksums.json'))) ?? {};
  const runs = Array.isArray(r.runs) ? (r.runs as { id?: unknown; argv?: unknown; status?: unknown }[]) : [];
  const models = new Map<string, string[]>();
  const versions = new Set<string>();
  const commits = new Set<string>();
  const nodes = new Set<string>();
  const indexes = new Map<string, { corpus: string | null; checksum: string; passages: number | null }>();
  for (const x of runs) {
    const id = str(x.id);
    if (!id) continue;
    const dir = join(run.dir, 'runs', id);
    if (!servable(run.root, join(dir, 'config.json'))) continue;
    const file = await readConfig(dir).catch(() => undefined);
    if (!file) continue;
    const cfg = (file.config ?? {}) as Record<string, unknown>;
    const prov = (file.provenance ?? {}) as Record<string, unknown>;
    const model = modelOf(cfg) ?? 'none (no LLM)';
    models.set(model, [...(models.get(model) ?? []), id]);
    if (str(prov.lexcaseVersion)) versions.add(prov.lexcaseVersion as string);
    if (str(prov.gitSha)) commits.add(prov.gitSha as string);
    // a merged run whose shards ran different code names each (eval/reproduce/merge-config.ts mergedGitShas)
    if (Array.isArray(prov.gitShas)) for (const g of prov.gitShas as { gitSha?: unknown }[]) if (str(g?.gitSha)) commits.add(g.gitSha as string);
    if (str(prov.node)) nodes.add(prov.node as string);
    const idx = cfg.index as Record<string, unknown> | string | undefined;
    if (idx && typeof idx === 'object' && str(idx.checksum))
      indexes.set(idx.checksum as string, {
        corpus: str(idx.corpus),
        checksum: idx.checksum as string,
        passages: typeof idx.passages === 'number' ? idx.passages : null,
      });
  }
  const recipe = str(r.recipe);
  const isArgv = (v: unknown): v is string[] => Array.isArray(v) && v.every((a) => typeof a === 'string');
  // the whole grid's command as the grid recorded it (with its --index, --data, --run-dir, --shard);
  // a reproduction.json an older lexcase wrote has none: its recipe, --limit and --model
  const whole = isArgv(r.argv)
    ? ['lexcase', ...r.argv]
    : recipe
      ? [
          'lexcase',
          'reproduce',
          recipe,
          ...(typeof r.limit === 'number' ? ['--limit', String(r.limit)] : []),
          ...(str(r.model) ? ['--model', r.model as string] : []),
        ]
      : null;
  const perRun = runs.flatMap((x) => (isArgv(x.argv) ? [['lexcase', ...x.argv]] : []));
  return {
    recipe,
    recipeSha256: str(r.recipeSha256),
    models: [...models].map(([model, ids]) => ({ model, runs: ids })),
    lexcaseVersions: [...versions],
    commits: [...commits],
    node: [...nodes],
    indexes: [...indexes.values()],
    checksums: Object.entries(sums)
      .filter(([, v]) => typeof v === 'string')
      .map(([file, sha256]) => ({ file, sha256: sha256 as string })),
    createdAt: str(r.createdAt),
    updatedAt: str(r.updatedAt),
    commands: [whole, ...perRun].filter((c): c is string[] => !!c).map((c) => c.map(shellWord).join(' ')),
  };
}
