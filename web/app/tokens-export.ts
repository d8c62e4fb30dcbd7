/**
 * The runs table's tokens cell as its CSV/Markdown/LaTeX export writes it (the cell's data-export):
 * integers without digit grouping. On screen the cell reads "12,345 (+1,024)"; exported as that text,
 * a lone "12,345" was a quoted text cell that a spreadsheet reads in its own locale — 12.345 (twelve)
 * where the comma is the decimal mark (de_DE, tr_TR, …), 12345 elsewhere. "12345" is the same number
 * in every locale (web/common/table-export.ts writes it unquoted, as a number).
 */
import type { RunSummary } from '../common/run-summary-types.js';

export type TokenCounts = Pick<RunSummary, 'tokens' | 'retriedTokens' | 'cutOff' | 'refused' | 'retried' | 'interrupted' | 'cacheHits'>;

export const tokensExportText = (r: TokenCounts): string =>
  [
    String(r.tokens),
    r.retriedTokens ? `(+${r.retriedTokens})` : '',
    r.cutOff ? `(${r.cutOff} cut off)` : '',
    r.refused ? `(${r.refused} refused)` : '',
    r.retried ? `(${r.retried} retried)` : '',
    r.interrupted ? `(${r.interrupted} under way at an interrupt)` : '',
    r.cacheHits ? `(${r.cacheHits} cached)` : '',
  ]
    .filter(Boolean)
    .join(' ');
