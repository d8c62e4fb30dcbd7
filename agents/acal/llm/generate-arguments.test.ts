/**
 * A writer's dropped citations keep the order the model wrote them in. Before, `droppedCitations`
 * listed the citations naming a handle of no evidence passage first and those naming no handle
 * after, whatever order the argument cited them in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../../../core/config.js';
import { createChatModel } from '../../../core/llm/factory.js';
import { startScriptedServer, type ScriptedServer } from '../../../tests/support/scripted-openai-server.js';
import { PassageHandles, withPassageHandles } from '../../common/passage-handles.js';
import { acalTask } from '../tasks.js';
import { generateArguments } from './generate-arguments.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const evidence = [
  { id: 'fre-801', title: 'FRE 801', text: '"Hearsay" means a statement that the declarant does not make while testifying at the current trial or hearing.' },
  { id: 'fre-803', title: 'FRE 803', text: 'Exceptions to the rule against hearsay regardless of whether the declarant is available as a witness.' },
];

describe('generateArguments: dropped citations', () => {
  it('lists the dropped citations of a mixed citation list in the order the model wrote them', async () => {
    // the item's map already handed P1 to a passage that is not this writer's evidence; the evidence is P2, P3
    const handles = new PassageHandles();
    handles.handle('cap-other#p4');
    const cites = ['P99', 'P2', 'P1', 'fre-803', '[P3]', 'P2, P3'];
    srv = await startScriptedServer([
      {
        content: JSON.stringify({
          arguments: [
            { text: 'The statement is offered for its truth.', citedPassageIds: cites },
            { text: 'No exception applies.', citedPassageIds: ['P1', 'P99'] },
          ],
        }),
      },
    ]);
    const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 5000 }));
    const task = acalTask('hearsay');
    const c = {
      task,
      claim: task.claim,
      caseText: 'On the issue of whether Rebecca was ill, the fact that Rebecca told Ronald that she was unwell.',
      evidence,
    };
    const out = await withPassageHandles(async (h) => {
      for (const p of evidence) h.handle(p.id);
      return generateArguments(llm, c, 'Prosecutor', 'support');
    }, handles);
    // expected from the citations as written: P2 and [P3] name evidence; P1 a passage that is no evidence; the rest no handle
    expect(out.arguments.map((a) => a.citedPassageIds)).toEqual([['fre-801', 'fre-803'], []]);
    expect(out.arguments.map((a) => a.droppedCitations)).toEqual([
      ['P99', 'cap-other#p4', 'fre-803', 'P2, P3'],
      ['cap-other#p4', 'P99'],
    ]);
    // the citations naming no handle, counted once each: P99, fre-803, "P2, P3", P99
    expect(handles.unresolved).toBe(4);
  });
});
