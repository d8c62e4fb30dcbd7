/**
 * Whether add-dense.ts may resume or keep a dense table whose vectors an earlier build made, as far
 * as their source goes (embed/vector-source.ts: the embedding endpoint or a local model folder's
 * digest; the model id, dimension and vector settings are compared before this). Another source
 * under the same model name makes other vectors, so mixing them into one table is refused — the
 * table is kept, since its batches may have taken hours.
 *
 *  - a partial table (dense-build.json): its recorded `source` (null: none beyond the model id) must
 *    be this build's; a state file from before sources were recorded resumes with a warning;
 *  - a finished one (the manifest's dense section): a recorded `source` must be this build's (a
 *    manifest without one, from before sources, compares as before).
 *
 * `older` holds the forms an older lexcase recorded for this build's source (embed/vector-source.ts
 * `olderVectorSources`: an endpoint whose digest covered its key's value too): one of them is this source.
 */
import { errors } from '../../core/errors.js';
import { log } from '../../core/log.js';

const shown = (s: string | null | undefined) => s ?? 'none beyond the model id';

export function checkResumeSource(
  earlier: { source?: string | null; rows?: number },
  source: string | undefined,
  ctx: { where: string; embedderId: string; stateFile: string },
  older: string[] = [],
): void {
  const partial = earlier.rows === undefined;
  if (!('source' in earlier)) {
    if (partial)
      log.warn(
        `dense: ${ctx.where} was begun before lexcase recorded where vectors come from; resuming it with ${shown(source)}, assuming its vectors came from there too (delete ${ctx.stateFile} to embed every passage again)`,
      );
    return;
  }
  if ((earlier.source ?? null) === (source ?? null) || (typeof earlier.source === 'string' && older.includes(earlier.source))) return;
  const differs = `its vectors of ${ctx.embedderId} came from ${shown(earlier.source)}, this build's would come from ${shown(source)}`;
  throw partial
    ? errors.outDirRefused(
        ctx.where,
        `${differs}; resuming would mix vectors of two sources in one table (the partial table is kept)`,
        `resume with the endpoint or model folder it was begun with; or, to embed every passage again with this one, delete ${ctx.stateFile} and rerun`,
        'dense vectors',
      )
    : errors.outDirRefused(
        ctx.where,
        `${differs}; keeping them would record them as this source's (the dense index is kept)`,
        'rerun with the endpoint or model folder they came from; to embed with this one, rerun with --rebuild (the new dense part replaces this one once it is complete)',
        'dense vectors',
      );
}
