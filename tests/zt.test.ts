import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { setLogLevel } from '../core/log.js';
import { buildMixedIndex, modelOn, runSystem, SENSIBLE } from './support/five-systems.js';
import { schemaConstrained, startScriptedServer } from './support/scripted-openai-server.js';
it('x', async () => {
  setLogLevel('silent');
  const dir = mkdtempSync(join(tmpdir(), 'zt-'));
  const index = await buildMixedIndex(dir, 1);
  const srv = await startScriptedServer(schemaConstrained(SENSIBLE.case()));
  await runSystem('case', { llm: modelOn(srv.url), runDir: join(dir, 'case'), index, n: 1 });
  for (const f of readdirSync(join(dir, 'case', 'traces'))) { const t = JSON.parse(readFileSync(join(dir, 'case', 'traces', f), 'utf8')); for (const a of t.advocates) console.log(a.stop, a.error, JSON.stringify(a.rejectedIds), a.steps?.length, JSON.stringify(a.toolCalls?.map((c: any) => c.tool))); }
  for (const r of srv.requests.slice(0, 6)) console.log(JSON.stringify(r.body.messages.at(-1)).slice(0, 300), JSON.stringify(r.body.response_format ?? r.body.tool_choice)?.slice(0, 100));
  await srv.close();
}, 300000);
