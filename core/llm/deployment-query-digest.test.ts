/**
 * config.json's `model.baseUrlQuery` tells a resume against another deployment chosen by the URL's
 * query (`?deployment=`) from the run's own, and holds no hash of a credential in that query: an
 * unsalted sha256 of `?pwd=summer2026` travels with every copy of the run dir and can be guessed
 * offline. Before, the digest covered every query value, the key's too.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { llmConfigSchema, publicLlmConfig } from '../config.js';
import { deploymentQueryDigest } from './endpoint.js';

const base = 'https://gw.example.org/openai/v1';

describe('baseUrlQuery: the query values but credentials', () => {
  it('changes with the deployment, not with a rotated key; a query of credentials alone records none', () => {
    const a = deploymentQueryDigest(`${base}?deployment=gpt-small&api-key=k-1111111111`);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(deploymentQueryDigest(`${base}?deployment=gpt-small&api-key=k-2222222222`)).toBe(a);
    expect(deploymentQueryDigest(`${base}?api-key=k-2222222222&deployment=gpt-small`)).toBe(a);
    expect(deploymentQueryDigest(`${base}?deployment=gpt-large&api-key=k-1111111111`)).not.toBe(a);
    expect(deploymentQueryDigest(`${base}?sig=abc&pwd=summer2026`)).toBeUndefined();
    expect(deploymentQueryDigest(base)).toBeUndefined();
  });

  it("config.json's model holds no digest of ?pwd=summer2026 (the old digest of every value is not there)", () => {
    const url = `${base}?pwd=summer2026`;
    const model = publicLlmConfig(llmConfigSchema.parse({ baseUrl: url, model: 'm' }));
    const guessable = createHash('sha256')
      .update(JSON.stringify([['pwd', ['summer2026']]]))
      .digest('hex')
      .slice(0, 32);
    expect(JSON.stringify(model)).not.toContain(guessable);
    expect(model.baseUrlQuery).toBeUndefined();
    const withDeployment = publicLlmConfig(llmConfigSchema.parse({ baseUrl: `${url}&deployment=d1`, model: 'm' }));
    expect(withDeployment.baseUrlQuery).toBe(deploymentQueryDigest(`${base}?deployment=d1`));
  });
});
