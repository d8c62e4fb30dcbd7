/**
 * Apply one contestation action to a graph (pure): returns the new graph (revision + 1, result
 * recomputed with the same semantics) and the audit entry recording who/when/what, the changed
 * record before and after, and the claim strength and verdict before and after.
 */
import { errors } from '../../../core/errors.js';
import { withResult } from '../graph/recompute.js';
import type { AcalArgument, AcalGraph, AcalRelation } from '../graph/types.js';
import type { ContestAction } from './actions.js';

export interface AuditEntry {
  itemId: string;
  /** Graph revision this action produced. */
  revision: number;
  who: string;
  when: string;
  action: ContestAction;
  /** The argument / relations touched, before and after (null when absent). */
  before: unknown;
  after: unknown;
  claim: {
    before: { strength: number; verdict: string; decidedBy: string };
    after: { strength: number; verdict: string; decidedBy: string; escalation: string };
  };
}

export interface ContestMeta {
  who: string;
  /** ISO timestamp; injectable so tests are deterministic. */
  when: string;
}

const findArg = (g: AcalGraph, id: string): AcalArgument => {
  const a = g.arguments.find((x) => x.id === id);
  if (!a) throw errors.notFound('argument', `${id} (known: ${g.arguments.map((x) => x.id).join(', ')})`);
  return a;
};

const relsBetween = (rels: AcalRelation[], a: string, b: string, both: boolean) =>
  rels.filter((r) => (r.from === a && r.to === b) || (both && r.from === b && r.to === a));

export function applyContest(graph: AcalGraph, action: ContestAction, meta: ContestMeta): { graph: AcalGraph; entry: AuditEntry } {
  const prev = withResult(graph).result!; // recomputed: a stored result is never trusted
  let args = graph.arguments.map((a) => ({ ...a }));
  let relations = graph.relations.map((r) => ({ ...r }));
  let before: unknown = null;
  let after: unknown = null;

  switch (action.type) {
    case 'accept':
    case 'reject': {
      const a = findArg(graph, action.argument);
      before = a;
      args = args.map((x) => (x.id === a.id ? { ...x, status: action.type === 'accept' ? 'accepted' : 'rejected' } : x));
      after = args.find((x) => x.id === a.id);
      break;
    }
    case 'edit': {
      const a = findArg(graph, action.argument);
      if (action.text === undefined && action.side === undefined && action.citedPassageIds === undefined)
        throw errors.usage('edit needs at least one of --text, --side, --cite');
      before = a;
      args = args.map((x) =>
        x.id === a.id
          ? {
              ...x,
              ...(action.text !== undefined ? { text: action.text } : {}),
              ...(action.side !== undefined ? { side: action.side } : {}),
              ...(action.citedPassageIds !== undefined ? { citedPassageIds: action.citedPassageIds } : {}),
            }
          : x,
      );
      after = args.find((x) => x.id === a.id);
      break;
    }
    case 'add': {
      const taken = new Set(args.map((a) => a.id));
      let id = action.id;
      if (id && (taken.has(id) || id === 'claim')) throw errors.invalidInput('action.id', `argument "${id}" already exists`);
      if (!id) {
        let n = 1;
        while (taken.has(`h${n}`)) n++;
        id = `h${n}`;
      }
      const arg: AcalArgument = {
        id,
        agent: action.agent ?? 'human',
        side: action.side,
        text: action.text,
        baseStrength: action.base,
        citedPassageIds: action.citedPassageIds ?? [],
        status: 'accepted',
        origin: 'human',
      };
      const added: AcalRelation[] = [];
      for (const r of action.relations ?? []) {
        findArg(graph, r.to);
        added.push({ from: id, to: r.to, kind: r.kind, confidence: 1, origin: 'human' });
        added.push({ from: r.to, to: id, kind: r.kind, confidence: 1, origin: 'human' });
      }
      args.push(arg);
      relations.push(...added);
      after = { argument: arg, relations: added };
      break;
    }
    case 'set-base': {
      const a = findArg(graph, action.argument);
      before = { id: a.id, baseStrength: a.baseStrength, humanBase: a.humanBase ?? null, effectiveBase: prev.effectiveBase[a.id] ?? null };
      args = args.map((x) => (x.id === a.id ? { ...x, humanBase: action.base } : x));
      after = { id: a.id, baseStrength: a.baseStrength, humanBase: action.base };
      break;
    }
    case 'set-relation': {
      if (action.from === action.to) throw errors.invalidInput('action.to', 'a relation needs two different arguments');
      findArg(graph, action.from);
      findArg(graph, action.to);
      const both = action.bidirectional ?? true;
      before = relsBetween(relations, action.from, action.to, both);
      relations = relations.filter((r) => !relsBetween([r], action.from, action.to, both).length);
      const added: AcalRelation[] = [];
      if (action.kind !== 'none') {
        added.push({ from: action.from, to: action.to, kind: action.kind, confidence: 1, origin: 'human' });
        if (both) added.push({ from: action.to, to: action.from, kind: action.kind, confidence: 1, origin: 'human' });
      }
      relations.push(...added);
      after = added;
      break;
    }
  }

  const next = withResult({ ...graph, arguments: args, relations, revision: graph.revision + 1 });
  const r = next.result!;
  return {
    graph: next,
    entry: {
      itemId: graph.itemId,
      revision: next.revision,
      who: meta.who,
      when: meta.when,
      action,
      before,
      after,
      claim: {
        before: { strength: prev.claimStrength, verdict: prev.verdict, decidedBy: prev.decidedBy },
        after: { strength: r.claimStrength, verdict: r.verdict, decidedBy: r.decidedBy, escalation: r.escalation },
      },
    },
  };
}
