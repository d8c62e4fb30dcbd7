/**
 * The --runs root of `lexcase serve`, checked when the server starts: a folder that does not exist
 * (a typo) or is a file stops it with one line, and a folder holding no run yet gets one warning —
 * before, `serve --runs nope` started without a word and every runs view was silently empty.
 */
import { stat } from 'node:fs/promises';
import { errors } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { listRuns } from './runs.js';

export async function checkRunsRoot(dir: string): Promise<void> {
  const s = await stat(dir).catch(() => undefined);
  if (!s) throw errors.fileNotFound('--runs folder', dir);
  if (!s.isDirectory())
    throw errors.usage(`--runs ${dir} is not a folder`, 'give the folder that holds your run directories (lexcase run … --run-dir under it)');
  if ((await listRuns(dir)).length === 0) log.warn(`--runs ${dir} holds no run directory yet: the runs views stay empty until a run is written under it`);
}
