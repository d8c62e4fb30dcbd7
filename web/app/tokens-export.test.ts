import { describe, expect, it } from 'vitest';
import { exportTable } from '../common/table-export.js';
import { tokensExportText } from './tokens-export.js';

const none = { retriedTokens: 0, cutOff: 0, refused: 0, retried: 0, interrupted: 0, cacheHits: 0 };

describe("the runs table's tokens column, exported", () => {
  it('writes a run\'s 12,345 tokens as the number 12345, unquoted (before: "12,345", 12.345 to a de_DE spreadsheet)', () => {
    const csv = exportTable({ columns: ['system', 'tokens'], rows: [['case', tokensExportText({ tokens: 12345, ...none })]] }, 'csv');
    expect(csv).toBe('system,tokens\r\ncase,12345\r\n');
  });

  it('keeps what the screen adds beside the figure, in ungrouped integers', () => {
    const r = { tokens: 1234567, retriedTokens: 2048, cutOff: 1, refused: 3, retried: 1500, interrupted: 10, cacheHits: 12 };
    expect(tokensExportText(r)).toBe('1234567 (+2048) (1 cut off) (3 refused) (1500 retried) (10 under way at an interrupt) (12 cached)');
    expect(exportTable({ columns: ['tokens'], rows: [[tokensExportText(r)]] }, 'markdown')).toContain('| 1234567 (+2048) (1 cut off)');
  });

  it('writes a run with no LLM call as 0', () => {
    expect(tokensExportText({ tokens: 0, ...none })).toBe('0');
  });
});
