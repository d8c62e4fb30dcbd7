/**
 * @xenova/transformers is optional: where it is not installed (or its native parts failed to
 * install), choosing the transformers embedder fails with a typed error naming the package to
 * install and the bundled alternative, while the other embedders keep working.
 */
import { describe, expect, it, vi } from 'vitest';
import { isLexcaseError } from '../../core/errors.js';
import { createEmbedder } from './create-embedder.js';
import { loadTransformers } from './load-transformers.js';

vi.mock('@xenova/transformers', () => {
  throw Object.assign(
    new Error("Cannot find package '@xenova/transformers' imported from /app/node_modules/lexcase/dist/retrieval/embed/load-transformers.js"),
    {
      code: 'ERR_MODULE_NOT_FOUND',
    },
  );
});

describe('transformers embedder when @xenova/transformers is absent', () => {
  it('createEmbedder rejects with EMBEDDER_UNAVAILABLE naming the package, the install command and the alternatives', async () => {
    const err = await createEmbedder({ provider: 'transformers', modelDir: '/nowhere/tiny-bert' }).catch((e: unknown) => e);
    expect(isLexcaseError(err)).toBe(true);
    expect(err).toMatchObject({ code: 'EMBEDDER_UNAVAILABLE' });
    const msg = (err as Error).message;
    expect(msg).toMatch(/^the "transformers" embedder needs the optional package @xenova\/transformers, which is not installed or could not be loaded: /);
    expect(msg).toMatch(/hint: run `npm install @xenova\/transformers` in your project/);
    expect(msg).toContain('--embedder use-lite');
    expect(msg.split('\n')).toHaveLength(2); // one line of message, one hint: no stack trace
  });

  it('a native part that fails to load (e.g. sharp without libvips) gives the same error with its first line', async () => {
    const err = await loadTransformers(() =>
      Promise.reject(new Error('Something went wrong installing the "sharp" module\n\nCannot find module ../build/Release/sharp-linux-x64.node')),
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'EMBEDDER_UNAVAILABLE',
      message: expect.stringContaining(
        'could not be loaded: Something went wrong installing the "sharp" module\n  hint: run `npm install @xenova/transformers`',
      ),
    });
  });

  it('the bundled embedder does not need the package', async () => {
    const emb = await createEmbedder({ provider: 'use-lite', workers: 0 });
    expect(emb.dimension).toBe(512);
    const [v] = await emb.embed(['The landlord breached the implied warranty of habitability.'], { kind: 'query' });
    expect(v).toHaveLength(512);
  });
});
