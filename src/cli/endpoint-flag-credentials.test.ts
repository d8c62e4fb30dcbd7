/**
 * `--endpoint` with a credential in its query (`?api-key=…`, `?sig=…`) puts it on the command line,
 * which every user of the machine reads in `ps` and /proc/PID/cmdline. The key itself is never a
 * flag (--api-key-env) and `--token` says so on stderr; `--endpoint` now says so too, naming the
 * parameter, never its value. Before, nothing was said. A query that holds no credential by its
 * name (`?api-version=`) is not warned about; a `user:pass@` URL is refused before any request, with
 * its own hint (src/cli/messages-process.test.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { clearSecrets } from '../../core/secrets.js';
import { applyEndpointFlags } from './llm-options.js';

afterEach(() => {
  vi.restoreAllMocks();
  clearSecrets();
});

/** The warning lines `--endpoint url` writes on stderr, as the user reads them (after the log's masking). */
function warningsFor(url: string): string[] {
  let stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
  const llm = applyEndpointFlags(llmConfigSchema.parse({}), { endpoint: url }, {});
  vi.restoreAllMocks();
  expect(llm.baseUrl).toBe(url);
  return stderr.split('\n').filter((l) => l.startsWith('[warn]'));
}

describe('--endpoint holding a credential', () => {
  it('?api-key= and ?sig= are named in a warning that the command line shows them; their values are not', () => {
    const w = warningsFor('https://gw.example.org/openai/v1?api-version=2024-06-01&api-key=az-9f3c1e77d2b04a51&sig=Zm9vYmFyYmF6');
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("--endpoint puts a credential on the command line (the URL's query parameters api-key, sig)");
    expect(w[0]).toContain('LEXCASE_LLM_BASE_URL');
    expect(w[0]).not.toMatch(/az-9f3c1e77d2b04a51|Zm9vYmFyYmF6|2024-06-01/);
  });

  it('a query without a credential by name (?api-version=) and a plain URL give no warning', () => {
    expect(warningsFor('https://gw.example.org/openai/v1?api-version=2024-06-01')).toEqual([]);
    expect(warningsFor('http://127.0.0.1:8000/v1')).toEqual([]);
  });
});
