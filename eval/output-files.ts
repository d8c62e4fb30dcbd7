/**
 * The output-path rule (core/out-dir-rule.ts) for the files lexcase writes besides run dirs: TREC
 * run files, qrels, JSON reports, plots (`search --topics --run-file`, `eval retrieval --out --plot
 * --run-file --qrels-file`, and the library's evalRetrievalOnIndex / evalTopicsOnIndex). No such file
 * lies inside a lexcase index or run dir (whichever command reads it), none is a path the command
 * reads, and no two name the same file; checked before any work starts.
 */
import { checkOutputFiles, type OutputFile, type ProtectedDir } from '../core/out-dir-rule.js';
import { INDEX_DIR } from '../indexer/out-dir.js';
import { RUN_DIR } from './run-dir-guard.js';
import { runFileFor } from './retrieval-eval-run-file-name.js';

export type { OutputFile };

/** The directories no output file may lie inside. */
export const PROTECTED_DIRS: readonly ProtectedDir[] = [INDEX_DIR, RUN_DIR];

/** Throws OUT_FILE_REFUSED unless every named output may be written; `inputs` are the paths the command reads. */
export function checkOutputs(outputs: readonly OutputFile[], inputs: readonly (string | undefined)[]): void {
  checkOutputFiles(
    outputs,
    inputs.filter((p): p is string => typeof p === 'string' && p !== ''),
    PROTECTED_DIRS,
  );
}

/** The run files `runFile` stands for: itself, or one per method (`<name>.<method><ext>`) when several. */
export function runFileOutputs(flag: string, runFile: string | undefined, methods: readonly string[]): OutputFile[] {
  if (runFile === undefined) return [];
  if (methods.length <= 1) return [{ flag, file: runFile, example: 'run.txt' }];
  return methods.map((m) => ({ flag, file: runFileFor(runFile, m, true), example: 'run.txt' }));
}
