/**
 * The check three systems' CLI tests share (run emar, threeply, acal): a run records the public LLM
 * config (endpoint, sampling) in config.json, and the same run resumed against another server is
 * refused before that server gets a chat request.
 *
 *   await expectResumeOnOtherServerRefused({ other, primary: srv.url, out, run: (limit) => cli(…, '--limit', limit, '--run-dir', out) },
 *     (model) => expect(model).toMatchObject({ temperature: 0.1 }));
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ScriptedServer } from './scripted-openai-server.js';

export async function expectResumeOnOtherServerRefused(
  o: { other: ScriptedServer; primary: string; out: string; run: (limit: string) => Promise<{ code: number; err: string }> },
  recorded: (model: Record<string, unknown>) => void = () => undefined,
): Promise<void> {
  try {
    process.env.LEXCASE_LLM_BASE_URL = o.primary;
    expect((await o.run('1')).code).toBe(0);
    const model = JSON.parse(readFileSync(join(o.out, 'config.json'), 'utf8')).config.model;
    expect(model).toMatchObject({ baseUrl: o.primary, model: 'scripted', structuredOutput: 'json_schema' });
    recorded(model);
    const before = o.other.requests.filter((q) => q.body?.messages).length;
    process.env.LEXCASE_LLM_BASE_URL = o.other.url;
    const r = await o.run('2');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/endpoint: was started with a different config \(field "model" differs: model\.[^)]*\); use a new run dir/);
    expect(o.other.requests.filter((q) => q.body?.messages)).toHaveLength(before);
  } finally {
    process.env.LEXCASE_LLM_BASE_URL = o.primary;
    await o.other.close();
  }
}
