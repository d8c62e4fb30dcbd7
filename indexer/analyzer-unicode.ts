/**
 * The Unicode version of the character data an index's terms were made with. Both analyzers read
 * the running Node's Unicode data (its ICU): the lucene preset's word breaks come from
 * Intl.Segmenter and its 'v'-flag classes (lucene-tokenizer.ts), lexcase's analyzer's token
 * characters from \p{L}\p{N}\p{M} and its NFC normalisation from String.prototype.normalize
 * (analyzer.ts). A character assigned in a later Unicode version is a separator to an older Node
 * and part of a word to a newer one, so a query analysed under another version than the index can
 * miss terms the index holds, with no error. The build records the version (manifest
 * `analyzerUnicode`, build.ts); opening an index built under another one warns once per index dir.
 */
import { log } from '../core/log.js';

/** The running Node's Unicode version (process.versions.unicode, e.g. "15.1"). */
export const RUNTIME_UNICODE: string = process.versions.unicode ?? 'unknown';

const warned = new Set<string>();

/**
 * The warning for an index whose recorded analyzer Unicode version differs from this Node's, or
 * undefined (same version, or an older index that records none).
 */
export function analyzerUnicodeNote(manifest: { analyzerUnicode?: string; analyzer: { preset?: string } }, runtime = RUNTIME_UNICODE): string | undefined {
  const built = manifest.analyzerUnicode;
  if (built === undefined || built === runtime) return undefined;
  const which = manifest.analyzer.preset === 'lucene' ? "the lucene analyzer's word breaks" : "the analyzer's letters and NFC normalisation";
  return (
    `its terms were made under Unicode ${built} and this Node has Unicode ${runtime} (${which} follow Node's Unicode data): ` +
    'a query word with a character assigned between the two versions is split differently than in the index; rebuild the index under this Node to match'
  );
}

/** Warn (once per index dir in this process) when `dir` was analysed under another Unicode version. */
export function warnAnalyzerUnicode(dir: string, manifest: { analyzerUnicode?: string; analyzer: { preset?: string } }): void {
  const note = analyzerUnicodeNote(manifest);
  if (!note || warned.has(dir)) return;
  warned.add(dir);
  log.warn(`index ${dir}: ${note}`);
}
