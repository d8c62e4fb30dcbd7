/**
 * Output files named by flags (--out, --run-file, --plot, --qrels-file): checked before any work
 * starts through the one output-path rule (core/out-dir-rule.ts, eval/output-files.ts), so a typo
 * costs no evaluation and the error is one line naming the flag and the path (not a raw EISDIR /
 * EEXIST from deep inside a write). Never inside a lexcase index or run dir (whichever command
 * reads it), never a file or folder the command reads, never two flags naming one file.
 */
import { checkOutputs, runFileOutputs as runFiles, type OutputFile } from '../../eval/output-files.js';

/** Throws OUT_FILE_REFUSED unless every named output may be written; `inputs` are the paths the command reads. */
export const assertOutFiles = (outputs: readonly OutputFile[], inputs: readonly (string | undefined)[]): void => checkOutputs(outputs, inputs);

/** The files `--run-file F` stands for: F itself, or one per method (`<name>.<method><ext>`) when several. */
export const runFileOutputs = (runFile: string | undefined, methods: readonly string[]): OutputFile[] => runFiles('--run-file', runFile, methods);
