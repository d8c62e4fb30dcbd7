/**
 * toolErrorText: what a model is told of a tool call its schema refused — the tool, each refused field
 * with its rule and the value sent, and what to do; where the fields are unknown, the refusal's message
 * without its stack lines.
 */
import { describe, expect, it } from 'vitest';
import { searchInputSchema } from '../../retrieval/tools/search-tool.js';
import { refusedFields, toolErrorText } from './tool-error-text.js';

describe('toolErrorText', () => {
  it('names every field the search schema refuses, a field not sent as such', () => {
    const args = { k: 2.5 };
    const text = toolErrorText('qld_search', args, refusedFields(searchInputSchema, args), 'unused');
    const lines = text.split('\n');
    expect(lines[0]).toBe("Tool qld_search did not run: its arguments break the tool's input rules.");
    expect(lines.slice(1, -1)).toEqual([expect.stringMatching(/^- query: .*string.* \(not sent\)$/), expect.stringMatching(/^- k: .*int.* \(sent 2\.5\)$/)]);
    expect(lines.at(-1)).toBe('Call qld_search again with arguments that keep these rules.');
  });

  it('without a schema to read the fields from, gives the refusal message with no stack line', () => {
    const msg = 'bad input\n    at StructuredTool.call (file:///x/node_modules/@langchain/core/dist/tools/index.js:113:10)';
    const text = toolErrorText('bm25_search', { k: 100 }, refusedFields(undefined, { k: 100 }), msg);
    expect(text.split('\n')[1]).toBe('- bad input');
    expect(text).not.toMatch(/node_modules|file:\/\/|\n\s+at /);
  });
});
