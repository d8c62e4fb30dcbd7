import { describe, expect, it } from 'vitest';
import { errorMessage } from './errors.js';

describe('errorMessage', () => {
  it('drops the Troubleshooting URL paragraph LangChain appends, at the end or inside a wrapped message', () => {
    const lc = new Error(
      '401 Incorrect API key provided\n\nTroubleshooting URL: https://docs.langchain.com/oss/javascript/langchain/errors/MODEL_AUTHENTICATION/\n',
    );
    expect(errorMessage(lc)).toBe('401 Incorrect API key provided');
    expect(errorMessage(new Error(`step failed: ${lc.message}; giving up`))).toBe('step failed: 401 Incorrect API key provided ; giving up');
    expect(errorMessage('plain text')).toBe('plain text');
  });
});
