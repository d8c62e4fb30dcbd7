/**
 * `lexcase acal contest <runDir> --item ID --action accept|reject|edit|add|set-base|set-relation`
 * and `lexcase acal show <runDir> --item ID`: human contestation of a saved ACAL argument graph.
 * Every action recomputes the verdict deterministically and is appended to
 * <runDir>/acal/audit.jsonl.
 */
import { intOpt, numOpt } from '../numeric-options.js';
import type { Command } from 'commander';

const globals = <T extends object>(o: T, cmd: Command): T & GlobalOpts => ({ ...cmd.optsWithGlobals(), ...o });
import { CONTEST_ACTIONS } from '../../../agents/acal/contest/action-names.js';
import type { AcalGraph } from '../../../agents/acal/graph/types.js';
import { errors } from '../../../core/errors.js';
import { action, output, parseListOpt, type GlobalOpts } from '../action.js';

interface ContestOpts extends GlobalOpts {
  item: string;
  action: string;
  arg?: string;
  text?: string;
  side?: string;
  base?: number | string;
  cite?: string[];
  from?: string;
  to?: string;
  kind?: string;
  directed?: boolean;
  id?: string;
  agent?: string;
  relate?: string[];
  who?: string;
  expectRevision?: number;
}

function num(name: string, v: number | string | undefined): number {
  const n = Number(v);
  if (v === undefined || !Number.isFinite(n)) throw errors.usage(`--${name} must be a number in [0, 1], got "${v ?? ''}"`);
  return n;
}

function need(name: string, v: string | undefined): string {
  if (!v) throw errors.usage(`--${name} is required for this action`);
  return v;
}

/** Build the action object from flags; validation of values happens in parseContestAction. */
export function actionFromFlags(o: ContestOpts): unknown {
  switch (o.action) {
    case 'accept':
    case 'reject':
      return { type: o.action, argument: need('arg', o.arg) };
    case 'edit':
      return { type: 'edit', argument: need('arg', o.arg), text: o.text, side: o.side, citedPassageIds: o.cite };
    case 'add':
      return {
        type: 'add',
        id: o.id,
        side: need('side', o.side),
        text: need('text', o.text),
        base: num('base', o.base),
        agent: o.agent,
        citedPassageIds: o.cite,
        relations: (o.relate ?? []).map((spec) => {
          const [kind, to] = spec.split(':');
          if (!to || (kind !== 'support' && kind !== 'attack')) throw errors.usage(`--relate takes kind:argId (e.g. attack:s2), got "${spec}"`);
          return { kind, to };
        }),
      };
    case 'set-base':
      return { type: 'set-base', argument: need('arg', o.arg), base: num('base', o.base) };
    case 'set-relation':
      return { type: 'set-relation', from: need('from', o.from), to: need('to', o.to), kind: need('kind', o.kind), bidirectional: !o.directed };
    default:
      throw errors.usage(`unknown --action "${o.action}"`, `one of: ${CONTEST_ACTIONS.join(', ')}`);
  }
}

export function describeGraph(g: AcalGraph): string {
  const r = g.result!;
  const lines = [
    `item ${g.itemId} (revision ${g.revision}, ${r.semantics})`,
    `claim: ${g.claim.text}`,
    `σ(claim) = ${r.claimStrength.toFixed(4)} → ${r.verdict} (${r.decidedBy}${r.escalation === 'needed' ? '; in the uncertainty band: escalation needed' : ''})`,
    '',
  ];
  for (const a of g.arguments) {
    const eff = r.effectiveBase[a.id];
    lines.push(
      `${a.status === 'rejected' ? 'x' : a.side === 'support' ? '+' : '-'} ${a.id} [${a.agent}] τ=${a.baseStrength.toFixed(2)}` +
        (eff !== undefined && eff !== a.baseStrength ? ` → ${eff.toFixed(2)}` : '') +
        (r.strengths[a.id] !== undefined ? ` σ=${r.strengths[a.id].toFixed(3)}` : '') +
        ` ${a.status}${a.citedPassageIds.length ? ` cites ${a.citedPassageIds.join(',')}` : ''}`,
      `    ${a.text}`,
    );
  }
  const pairs = g.relations.filter((x) => x.from < x.to || !g.relations.some((y) => y.from === x.to && y.to === x.from && y.kind === x.kind));
  if (pairs.length) lines.push('', 'relations: ' + pairs.map((x) => `${x.from}${x.kind === 'support' ? '+' : '-'}${x.to}`).join(' '));
  return lines.join('\n');
}

export function register(program: Command): void {
  const acal = program.commands.find((c) => c.name() === 'acal') ?? program.command('acal').description('ACAL argument graphs: inspect and contest');

  acal
    .command('show <runDir>')
    .description("print an item's argument graph, strengths and verdict")
    .requiredOption('--item <id>', 'item id')
    .option('--audit', 'also print the audit log for the item')
    .option('--compare', 'also show σ(claim) under every semantics (quadratic, dfquad, acal-compat)')
    .action(
      action(async (runDir: string, local: { item: string; audit?: boolean; compare?: boolean }, cmd: Command) => {
        const o = globals(local, cmd);
        const [{ compareSemantics }, { withResult }, { readAudit, readGraph }] = await Promise.all([
          import('../../../agents/acal/graph/compare.js'),
          import('../../../agents/acal/graph/recompute.js'),
          import('../../../agents/acal/graph/store.js'),
        ]);
        const g = withResult(readGraph(runDir, o.item)); // the result is always recomputed, never trusted from the file
        const log = o.audit ? readAudit(runDir, o.item) : undefined;
        const cmp = o.compare ? compareSemantics(g) : undefined;
        output(
          o,
          { graph: g, audit: log, compare: cmp },
          () =>
            describeGraph(g) +
            (cmp
              ? '\n\nsemantics:\n' +
                cmp
                  .map(
                    (c) =>
                      `  ${c.semantics.padEnd(12)} σ(claim) = ${c.claimStrength.toFixed(4)} → ${c.thresholdVerdict}${c.converged ? '' : ' (not converged)'}`,
                  )
                  .join('\n')
              : '') +
            (log ? '\n\naudit:\n' + log.map((e) => `  r${e.revision} ${e.when} ${e.who}: ${JSON.stringify(e.action)}`).join('\n') : ''),
        );
      }),
    );

  acal
    .command('contest <runDir>')
    .description('accept/reject/edit/add an argument or change a base strength or relation; recompute; audit')
    .requiredOption('--item <id>', 'item id (file <runDir>/acal/<id>.graph.json)')
    .requiredOption('--action <type>', CONTEST_ACTIONS.join(' | '))
    .option('--arg <id>', 'argument id (accept, reject, edit, set-base)')
    .option('--text <text>', 'argument text (edit, add)')
    .option('--side <side>', 'support | attack (edit, add)')
    .option('--base <x>', 'base strength in [0, 1] (add, set-base)', numOpt('base', { min: 0, max: 1 }))
    .option('--cite <ids>', 'comma-separated cited passage ids (edit, add)', parseListOpt)
    .option('--id <id>', 'id for an added argument (default h1, h2, ...)')
    .option('--agent <role>', 'role credited with an added argument (default "human")')
    .option('--relate <kind:argId...>', 'relations of an added argument, e.g. attack:s2 support:a1')
    .option('--from <id>', 'relation source (set-relation)')
    .option('--to <id>', 'relation target (set-relation)')
    .option('--kind <kind>', 'support | attack | none (set-relation)')
    .option('--directed', 'set-relation: change only from→to (default: both directions)')
    .option('--who <name>', 'who is contesting (default $LEXCASE_USER or the OS user)')
    .option(
      '--expect-revision <n>',
      'apply only if the graph is still at this revision (the one you looked at); else REVISION_CONFLICT, nothing written',
      intOpt('expect-revision', { min: 0 }),
    )
    .action(
      action(async (runDir: string, local: ContestOpts, cmd: Command) => {
        const o = globals(local, cmd);
        const { contest } = await import('../../../agents/acal/contest/contest.js');
        const { graph, entry } = contest(runDir, o.item, actionFromFlags(o), { who: o.who, expectRevision: o.expectRevision });
        const c = entry.claim;
        output(
          o,
          { entry, result: graph.result },
          () =>
            `revision ${entry.revision}: σ(claim) ${c.before.strength.toFixed(4)} → ${c.after.strength.toFixed(4)}; ` +
            `verdict ${c.before.verdict} → ${c.after.verdict}` +
            (c.after.escalation === 'needed' ? ' (in the uncertainty band: escalation needed)' : '') +
            `\n\n${describeGraph(graph)}`,
        );
      }),
    );
}
