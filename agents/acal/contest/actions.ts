/**
 * Human contestation actions (ACAL §3.3.3): accept / reject / edit an argument, add a missing
 * argument, change a base strength, change (or remove) a relation.
 */
import { z } from 'zod';
import { errors } from '../../../core/errors.js';
import { parseInput } from '../../../core/parse-input.js';

const unit = z.number().min(0).max(1);

/** Each action is strict: an unknown field (`bas` for `base`) is refused naming it, never ignored. */
export const contestActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('accept'), argument: z.string().min(1) }).strict(),
  z.object({ type: z.literal('reject'), argument: z.string().min(1) }).strict(),
  z
    .object({
      type: z.literal('edit'),
      argument: z.string().min(1),
      text: z.string().min(1).optional(),
      side: z.enum(['support', 'attack']).optional(),
      citedPassageIds: z.array(z.string()).optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('add'),
      id: z.string().min(1).optional(),
      side: z.enum(['support', 'attack']),
      text: z.string().min(1),
      base: unit,
      agent: z.string().min(1).optional(),
      citedPassageIds: z.array(z.string()).optional(),
      /** Relations from the new argument to existing ones (made bidirectional, as the paper does). */
      relations: z.array(z.object({ to: z.string().min(1), kind: z.enum(['support', 'attack']) }).strict()).optional(),
    })
    .strict(),
  z.object({ type: z.literal('set-base'), argument: z.string().min(1), base: unit }).strict(),
  z
    .object({
      type: z.literal('set-relation'),
      from: z.string().min(1),
      to: z.string().min(1),
      /** "none" removes the relation. */
      kind: z.enum(['support', 'attack', 'none']),
      /** Apply to both directions (default true: ACAL relations are bidirectional). */
      bidirectional: z.boolean().optional(),
    })
    .strict(),
]);
export type ContestAction = z.infer<typeof contestActionSchema>;
export { CONTEST_ACTIONS } from './action-names.js';

export function parseContestAction(json: unknown): ContestAction {
  const r = contestActionSchema.safeParse(json);
  if (!r.success) {
    // an unknown field first, named with the fields the action takes (core/parse-input.ts)
    if (r.error.issues.some((i) => i.code === 'unrecognized_keys')) parseInput(contestActionSchema, json, 'action');
    const issue = r.error.issues[0];
    throw errors.invalidInput(`action.${issue.path.join('.') || 'type'}`, issue.message);
  }
  return r.data;
}
