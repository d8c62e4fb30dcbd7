/**
 * Multi-agent argument generation (ACAL eq. 3.2): each selected agent writes 2–5 arguments for
 * its side, grounded in the retrieved evidence, citing passage ids. Citations of ids that were
 * not retrieved are dropped (and reported). An argument with empty (or blank) text is dropped and
 * counted (`emptyDropped`): the strict schema subset sent to the model cannot require text
 * (no minLength), and the saved graph's schema refuses an argument without it.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import { sendAs } from '../../../core/llm/json-schema.js';
import { invokeStructured } from '../../../core/llm/structured.js';
import { generateArgumentsPrompt, generateArgumentsSystem } from '../prompts.js';
import { msgs, type CaseInput } from './common.js';
import { passageHandles } from '../../common/passage-handles.js';

export interface DraftArgument {
  text: string;
  citedPassageIds: string[];
  droppedCitations: string[];
}

/** 2–5 arguments; a citation is offered as an enum of the evidence handles (P1..Pk), parsed leniently (an unknown id is dropped and reported). */
export function argumentsSchema(handles: readonly string[]) {
  const cites = sendAs(z.array(z.string()), {
    type: 'array',
    items: handles.length ? { type: 'string', enum: [...new Set(handles)] } : { type: 'string' },
    ...(handles.length ? {} : { maxItems: 0 }),
  });
  return z.object({
    arguments: z
      .array(z.object({ text: z.string(), citedPassageIds: cites }))
      .min(2)
      .max(5),
  });
}

export async function generateArguments(
  llm: BaseChatModel,
  c: CaseInput,
  role: string,
  side: 'support' | 'attack',
  opts: { signal?: AbortSignal } = {},
): Promise<{ arguments: DraftArgument[]; emptyDropped: number; raw: string[] }> {
  const r = await invokeStructured(
    llm,
    msgs(generateArgumentsSystem(role), generateArgumentsPrompt(c, role, side)),
    argumentsSchema(c.evidence.map((p) => passageHandles().handle(p.id))),
    {
      what: `${side} arguments by ${role}`,
      signal: opts.signal,
    },
  );
  const known = new Set(c.evidence.map((p) => p.id));
  const handles = passageHandles(); // the model cites handles (P1..); map them back to real ids
  const written = r.value.arguments.filter((a) => a.text.trim() !== '');
  return {
    arguments: written.map((a) => {
      // read (and counted) once, the reply accepted; one naming no handle shown is dropped whatever its text.
      // One citation at a time, so the dropped ones keep the order the model wrote them in (before, those
      // naming a handle of no evidence passage came first, then those naming no handle)
      const cited: string[] = [];
      const dropped: string[] = [];
      for (const ref of a.citedPassageIds) {
        const { ids, unresolved } = handles.cite([ref]);
        if (ids.length && known.has(ids[0])) cited.push(ids[0]);
        else dropped.push(ids[0] ?? unresolved[0]);
      }
      return { text: a.text, citedPassageIds: [...new Set(cited)], droppedCitations: dropped };
    }),
    emptyDropped: r.value.arguments.length - written.length,
    raw: r.raw,
  };
}
