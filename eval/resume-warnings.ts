/**
 * What a resume says of what changed since the run's latest attempt, once the resume is accepted
 * (eval/runner.ts), in this order: the "resuming DIR with …" line of operational changes (retries,
 * timeouts, the cache, data files read from another place — resume-config.ts); the warning for an
 * index analysed under another Unicode version (`indexContent.analyzerUnicode`); the one warning for
 * other endpoint query values (resume-endpoint-query.ts); the line for an index moved to another
 * path (resume-index.ts). Returns the changes the resume records (config.json `resumes[].changed`).
 */
import { log } from '../core/log.js';
import { endpointQueryWarning, keyedDigest, queryAsLastAttempt, WITHHELD_DIGEST } from './resume-endpoint-query.js';
import { describeOperationalChanges, operationalChanges } from './resume-config.js';
import { indexMovedText, type IndexMove } from './resume-index.js';
import type { RunConfigFile } from './run-config-file.js';

type Changes = Record<string, { from: unknown; to: unknown }>;

const endpointOf = (c: Record<string, unknown> | undefined) =>
  c?.model && typeof c.model === 'object' ? (c.model as { baseUrl?: unknown; baseUrlQuery?: unknown }) : {};

export function sayResumeChanges(
  runDir: string,
  o: {
    /** The run's config.json as the resume read it (its config after the comparison's updates). */
    existing: Partial<Pick<RunConfigFile, 'config' | 'resumes'>> & { provenance?: { createdAt?: string } };
    /** The config this resume runs with. */
    config: Record<string, unknown>;
    /** Data files read from another place with the same bytes (resume-items.ts assertSameDataFiles). */
    movedData: Changes;
    indexMove: IndexMove['move'];
  },
): Changes {
  const { existing, config } = o;
  const changed: Changes = { ...operationalChanges(existing.config ?? {}, config), ...o.movedData };
  // another endpoint query than the latest attempt's: one warning, said once (resume-endpoint-query.ts)
  const queryWarning = endpointQueryWarning(
    runDir,
    existing.resumes ?? [],
    { ...endpointOf(existing.config), createdAt: existing.provenance?.createdAt },
    endpointOf(config),
  );
  // the value this resume ran with, also where it is the start's again (back from another one), so the next resume compares with it
  if (queryWarning && !changed['model.baseUrlQuery'])
    changed['model.baseUrlQuery'] = { from: endpointOf(existing.config).baseUrlQuery ?? null, to: endpointOf(config).baseUrlQuery ?? null };
  // said by the warning, or the value the latest attempt ran with already (said when a resume changed it): not said again
  const told =
    queryWarning || queryAsLastAttempt(existing.resumes ?? [], endpointOf(existing.config), endpointOf(config))
      ? Object.fromEntries(Object.entries(changed).filter(([k]) => k !== 'model.baseUrlQuery'))
      : { ...changed };
  // the start's digest, where an older lexcase's covered the key's value too, is not printed
  const startQuery = told['model.baseUrlQuery'];
  if (startQuery && keyedDigest(existing.provenance?.createdAt, endpointOf(existing.config).baseUrl))
    told['model.baseUrlQuery'] = { ...startQuery, from: WITHHELD_DIGEST };
  if (Object.keys(told).length) log.info(`resuming ${runDir} with ${describeOperationalChanges(told, existing.resumes)}`);
  const unicode = changed['indexContent.analyzerUnicode'];
  if (unicode && unicode.from !== null && unicode.to !== null)
    log.warn(
      `resuming ${runDir} over an index analysed under Unicode ${unicode.to}, the run's earlier items searched one analysed under Unicode ${unicode.from} (indexContent.analyzerUnicode; the index was rebuilt under another Node): a word with a character assigned between the two versions is split into other terms, so an item may find other passages than the earlier ones did; use a new run dir, or the index the run was started with, to keep them alike`,
    );
  if (queryWarning) log.warn(queryWarning);
  if (o.indexMove) {
    log.info(indexMovedText(runDir, o.indexMove));
    changed.index = o.indexMove;
  }
  return changed;
}
