/** Run header: what was run, on what (the LLM settings included: llm-fields.ts), with which seed/code/data. */
import { llmFields } from '../llm-fields.js';
import type { RunData, SectionBuilder } from '../types.js';
import { replyFingerprintsOf, replyFingerprintsText } from '../../reply-fingerprints.js';
import { identityGapText, serverIdentitiesText, swappedIdentitiesOf } from '../../server-identities.js';
import { replyModelsText } from '../../reply-models.js';
import { cacheSourcesOf, cacheSourcesText } from '../../cache-sources.js';
import { runResumes, type RunResume, uncheckedResumeLines } from '../../run-resumes.js';

/** The shards a merged run came from: each one's items, code and resumes. */
function mergedText(from: NonNullable<RunData['config']['mergedFrom']>): string {
  return `${from.length} shards: ${from
    .map((s) => {
      const resumed = s.resumes?.length ? `, resumed ${s.resumes.length}×` : '';
      return `${s.shard.index}/${s.shard.count} (${s.items} items, git sha ${s.gitSha?.slice(0, 12) ?? '?'}${s.lexcaseVersion ? `, lexcase ${s.lexcaseVersion}` : ''}${resumed})`;
    })
    .join('; ')}`;
}

/**
 * The run's code: its git sha, or, for a merged run whose shards ran different code, every one with
 * the shards and items it made — "mixed: a1b2c3d4e5f6 (shard 1: 45 items), d4e5f6a7b8c9 (shard 2: 44 items)".
 */
function gitShaText(p: RunData['config']['provenance']): string {
  if (!p.gitShas || p.gitShas.length < 2) return String(p.gitSha);
  const each = p.gitShas.map(
    (g) => `${g.gitSha.slice(0, 12)} (shard${g.shards.length > 1 ? 's' : ''} ${g.shards.join(', ')}: ${g.items} item${g.items === 1 ? '' : 's'})`,
  );
  return `mixed: ${each.join(', ')}`;
}

/**
 * The commits a run's resumes ran under that are not its recorded one(s) (config.json `resumes[].gitSha`):
 * the items those resumes ran were made by that code. Before, report.md named only the first commit
 * ("git sha: 3950e8a0…", "resumed: 1×") while 3 of a run's 6 items came from a resume under another
 * build; config.json kept it, `lexcase compare` said it, the run's own report did not.
 */
function resumeCommitsText(run: RunData, resumes: readonly RunResume[]): string | undefined {
  const p = run.config.provenance;
  const own = new Set([p.gitSha, ...(p.gitShas ?? []).map((g) => g.gitSha)]);
  const other = new Map<string, number>();
  for (const r of resumes)
    if (typeof r.gitSha === 'string' && !own.has(r.gitSha)) other.set(r.gitSha, (other.get(r.gitSha) ?? 0) + Math.max(0, r.items - r.skipped));
  if (!other.size) return undefined;
  const each = [...other].map(([sha, n]) => `${sha.slice(0, 12)} (${n} item${n === 1 ? '' : 's'} to run)`);
  return `${each.join(', ')} — not the git sha above: the items a resume ran were made by its code`;
}

/**
 * The data files the run read (config.json `dataFiles`, by split: LegalBench's, corpora/legalbench.ts;
 * CASE's and MAD's dataset file, corpora/registry.ts datasetFileRecord):
 * "data file (test)": "hearsay test: bundled corpora/data/legalbench/hearsay.test.jsonl, sha256 …" —
 * $LEXCASE_LEGALBENCH_DIR is read before the bundled copy, so this says which one the items came from.
 */
function dataFileFields(files: unknown): [string, unknown][] {
  if (!files || typeof files !== 'object' || Array.isArray(files)) return [];
  return Object.entries(files as Record<string, { task?: string; dataset?: string; split?: string; source?: string; file?: string; sha256?: string }>).map(
    ([split, f]) => {
      // a LegalBench task's file, or a dataset's (CASE, MAD: corpora/registry.ts datasetFileRecord)
      const name = f?.task ?? f?.dataset;
      return [`data file (${split})`, `${name ? `${name} ${f.split ?? split}: ` : ''}${f?.source ?? '?'} ${f?.file ?? '?'}, sha256 ${f?.sha256 ?? '?'}`];
    },
  );
}

/** "3×", a merged run's with its shards' and its own: "4× (shard 1: 1×, shard 2: 2×, merged run dir: 1×)". */
function resumedText(resumes: readonly RunResume[]): string {
  const byShard = new Map<number, number>();
  for (const r of resumes) if (r.shard !== undefined) byShard.set(r.shard, (byShard.get(r.shard) ?? 0) + 1);
  const own = resumes.filter((r) => r.shard === undefined).length;
  const each = [...[...byShard].map(([s, n]) => `shard ${s}: ${n}×`), ...(byShard.size && own ? [`merged run dir: ${own}×`] : [])];
  return `${resumes.length}×${each.length ? ` (${each.join(', ')})` : ''}`;
}

export const summarySection: SectionBuilder = (run) => {
  const c = run.config.config;
  const p = run.config.provenance;
  // a merged run's: every shard's (run-resumes.ts; a merged run dir written before 2026-12-01 recorded shard 1's alone at the top)
  const resumes = runResumes(run.config);
  const resumedUnder = resumeCommitsText(run, resumes);
  const fields: [string, unknown][] = [
    ...Object.entries(c).filter(([, v]) => v !== undefined && (typeof v !== 'object' || Array.isArray(v))),
    // the model and prompts are objects in config.json: their few identifying settings, the endpoint masked
    ...llmFields(c),
    // the model asked is the config's; replies that named another (a proxy routing elsewhere) are said beside it
    ...(replyModelsText(run.results) ? [['replies named another model', replyModelsText(run.results)] as [string, unknown]] : []),
    // a system_fingerprint that changed during the run: the backend's configuration changed under it
    ...(replyFingerprintsText(run.results)
      ? [
          [
            `replies carried ${replyFingerprintsOf(run.results).fingerprints.length} system_fingerprints`,
            `${replyFingerprintsText(run.results)} — the endpoint's backend configuration changed during the run`,
          ] as [string, unknown],
        ]
      : []),
    // replies under more than one server identity (GET /models): another model behind the same name during the run
    ...(serverIdentitiesText(run.results)
      ? [
          [
            `replies answered under ${swappedIdentitiesOf(run.results)} server identities`,
            `${serverIdentitiesText(run.results)} — the server described the model otherwise during the run (another model behind the same name): the figures mix its models`,
          ] as [string, unknown],
        ]
      : []),
    // items that asked the LLM with no identity recorded beside items with one (a resume of an older run dir)
    ...(identityGapText(run.results) ? [['server identity not recorded', identityGapText(run.results)] as [string, unknown]] : []),
    // replies from the response cache: how many, and who wrote them (a model swapped behind one name is not that model)
    ...(cacheSourcesOf(run.results).sources.length
      ? [['answered from the response cache', cacheSourcesText(cacheSourcesOf(run.results).sources, cacheSourcesOf(run.results).calls)] as [string, unknown]]
      : []),
    ['seed', run.config.seed],
    ['items in results', run.results.length],
    ['items planned', p.items],
    ['dataset checksum', p.datasetChecksum],
    // what the model is shown of the items (absent in a run dir written before 2026-12-01)
    ...(p.contentChecksum ? [['content checksum', p.contentChecksum] as [string, unknown]] : []),
    ...dataFileFields(c.dataFiles),
    ['git sha', gitShaText(p)],
    ['lexcase version', p.lexcaseVersion],
    ['created', p.createdAt],
    ...(resumes.length ? [['resumed', resumedText(resumes)] as [string, unknown]] : []),
    ...(resumedUnder ? [['resumed under', resumedUnder] as [string, unknown]] : []),
    ...uncheckedResumeLines(resumes).map((w) => ['warning', w] as [string, unknown]),
    ...(run.config.mergedFrom?.length ? [['merged from', mergedText(run.config.mergedFrom)] as [string, unknown]] : []),
    ...(run.config.mergeWarnings ?? []).map((w) => ['warning', w] as [string, unknown]),
    ...(run.config.replayWarnings ?? []).map((w) => ['replay not fully checked', w] as [string, unknown]),
    ...(run.config.structuredOutputSwitches ?? []).map(
      (x) =>
        [
          x.model ? `structured output switched (${x.model})` : 'structured output switched',
          `${x.from} → ${x.to} from item ${x.item} on (the endpoint refused ${x.from}; earlier items were asked in ${x.from})`,
        ] as [string, unknown],
    ),
  ];
  const fingerprints = replyFingerprintsOf(run.results).fingerprints;
  const markdown = fields.map(([k, v]) => `- **${k}**: ${Array.isArray(v) ? v.join(', ') : String(v)}`).join('\n');
  return {
    id: 'summary',
    title: 'Run',
    markdown,
    json: {
      config: c,
      seed: run.config.seed,
      provenance: p,
      resumes,
      ...(uncheckedResumeLines(resumes).length ? { resumeWarnings: uncheckedResumeLines(resumes) } : {}),
      ...(fingerprints.length ? { systemFingerprints: Object.fromEntries(fingerprints) } : {}),
      ...(run.config.structuredOutputSwitches ? { structuredOutputSwitches: run.config.structuredOutputSwitches } : {}),
      ...(run.config.mergedFrom ? { mergedFrom: run.config.mergedFrom } : {}),
      ...(run.config.mergeWarnings ? { mergeWarnings: run.config.mergeWarnings } : {}),
      ...(run.config.replayWarnings ? { replayWarnings: run.config.replayWarnings } : {}),
    },
  };
};
