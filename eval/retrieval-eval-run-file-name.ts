/** The run file `--run-file F` names for one method: F itself, or `<name>.<method><ext>` when several methods are evaluated. */
export function runFileFor(runFile: string, method: string, several: boolean): string {
  if (!several) return runFile;
  const m = /^(.*?)(\.[^./\\]*)?$/.exec(runFile)!;
  return `${m[1]}.${method}${m[2] ?? ''}`;
}
