/**
 * The LLM-call inspector of an item (GET /api/run/calls): every call in order — stage, prompt
 * messages, reply, tool calls, the parse/validation error of the call that failed, latency and
 * tokens — like a trace tree: one row per call, its messages and reply on demand. Calls the run
 * did not record (no llm/<item>.jsonl) are shown as far as the trace has them, and said so.
 */
import { api, qs } from './api.js';
import { clear, errorBox, h, scrollBox } from './dom.js';

interface Call {
  stage: string;
  messages: { role: string; content: string }[];
  reply: string | null;
  toolCalls?: { name: string; args: unknown }[];
  error?: string;
  ms?: number;
  /** Wait for a concurrency slot before the first attempt (not in `ms`). */
  queuedMs?: number;
  /** Failed attempts of this request sent again (429, 5xx, a timeout, …): their time is in `ms`, their usage in no total. */
  retries?: number;
  tokens?: { input?: number; output?: number; total?: number };
  cached?: boolean;
}
/** `1002 ms`, with `(+ 3049 ms queued)` when the call waited for a concurrency slot first and `(2 failed attempts sent again)` when it was retried. */
const latencyText = (c: Call): string =>
  `${c.ms === undefined ? '–' : `${Math.round(c.ms)} ms${c.queuedMs ? ` (+ ${Math.round(c.queuedMs)} ms queued)` : ''}`}${c.retries ? ` (${c.retries} failed ${c.retries === 1 ? 'attempt' : 'attempts'} sent again)` : ''}`;
interface Calls {
  source: 'recorded' | 'trace';
  calls: Call[];
  problems: string[];
  totals: ItemTotals;
}
/**
 * results.jsonl's figures of the item: `calls` counts replies; `refused` / `abandoned` the requests that got none;
 * `unsent` (from the recorded exchanges: no results.jsonl count) the calls still waiting for a concurrency slot when
 * the item ended, never sent. Each of those is a row of its own in the table.
 */
interface ItemTotals {
  calls: number | null;
  tokens: number | null;
  ms: number | null;
  error: string | null;
  refused?: number;
  abandoned?: number;
  unsent?: number;
}

/**
 * The panel's "Item totals" sentence. `calls` counts the replies only; a request refused after its
 * retries (an HTTP 400, a last timeout), cut off when the item ended, or never sent (it still waited
 * for a concurrency slot when the item ended) is a row of the table too, so they are named beside it —
 * "5 calls (+1 refused)" over six rows, "0 calls (+1 cut off, +2 never sent)" over three, never "5 calls" alone.
 */
export function itemTotalsText(t: ItemTotals): string {
  const extra = [t.refused ? `+${t.refused} refused` : '', t.abandoned ? `+${t.abandoned} cut off` : '', t.unsent ? `+${t.unsent} never sent` : ''].filter(
    Boolean,
  );
  return ` Item totals: ${t.calls ?? '–'} calls${extra.length ? ` (${extra.join(', ')})` : ''}, ${t.tokens?.toLocaleString('en-US') ?? '–'} tokens, ${t.ms ?? '–'} ms.`;
}

const short = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

function callDetail(c: Call): HTMLElement {
  return h(
    'div',
    { class: 'call-detail' },
    c.error ? h('div', { class: 'error', role: 'note', 'data-testid': 'call-error' }, c.error) : null,
    c.messages.length
      ? c.messages.map((m) => h('div', { class: 'msg' }, h('div', { class: 'role' }, m.role), h('pre', { tabindex: 0 }, m.content)))
      : h('p', { class: 'muted' }, 'prompt not recorded'),
    c.toolCalls?.length
      ? h(
          'div',
          { class: 'msg' },
          h('div', { class: 'role' }, 'tool calls'),
          h('pre', { tabindex: 0 }, c.toolCalls.map((t) => `${t.name}(${JSON.stringify(t.args)})`).join('\n')),
        )
      : null,
    h(
      'div',
      { class: 'msg' },
      h('div', { class: 'role' }, 'reply'),
      c.reply !== null ? h('pre', { tabindex: 0, 'data-testid': 'call-reply' }, c.reply) : h('p', { class: 'muted' }, 'no reply'),
    ),
  );
}

/** "advocate A" → agent "advocate A", step "calls"; "debater B · round 2" → agent "debater B", step "round 2". */
export function agentStep(stage: string): { agent: string; step: string } {
  const [agent, ...rest] = stage.split(' · ');
  return { agent: agent.trim() || 'calls', step: rest.join(' · ').trim() || 'calls' };
}

/**
 * A level's total of one per-call figure. Unknown on every call (a run without recorded exchanges) is
 * "–", never 0; known on only some calls is a lower bound ("≥ N").
 */
const total = (cs: Call[], f: (c: Call) => number | undefined, round = false): string => {
  const known = cs.map(f).filter((x): x is number => x !== undefined);
  if (!known.length) return '–';
  const s = known.reduce((a, x) => a + x, 0);
  const text = (round ? Math.round(s) : s).toLocaleString('en-US');
  return known.length === cs.length ? text : `≥ ${text}`;
};
/**
 * A level's calls, tokens and latency. Over several calls the latency is the sum of the calls'
 * times, not the elapsed time (jurors, debaters and advocates run in parallel), and says so.
 */
export const costLine = (cs: Call[]) =>
  `${cs.length} call${cs.length === 1 ? '' : 's'} · ${total(cs, (c) => c.tokens?.total)} tokens (${total(cs, (c) => c.tokens?.input)} in / ${total(cs, (c) => c.tokens?.output)} out) · ${total(cs, (c) => c.ms, true)} ms${cs.length > 1 ? ' summed call time (calls may overlap: not elapsed time)' : ''}`;

/**
 * The item's calls as a nested timeline, in call order: agent → step → call, each level with its
 * calls, tokens (in / out) and latency, each call's latency also a bar (a <meter> against the
 * slowest call). Cost is not shown: the run files record no provider prices.
 */
export function callTimeline(calls: Call[]): HTMLElement {
  const maxMs = Math.max(1, ...calls.map((c) => c.ms ?? 0));
  const agents = new Map<string, Map<string, { call: Call; n: number }[]>>();
  calls.forEach((c, i) => {
    const { agent, step } = agentStep(c.stage);
    const steps = agents.get(agent) ?? new Map();
    agents.set(agent, steps);
    steps.set(step, [...(steps.get(step) ?? []), { call: c, n: i + 1 }]);
  });
  return h(
    'ol',
    { class: 'timeline', 'data-testid': 'call-timeline', 'aria-label': 'LLM calls by agent and step' },
    [...agents].map(([agent, steps]) => {
      const all = [...steps.values()].flat().map((x) => x.call);
      return h(
        'li',
        { 'data-testid': 'tl-agent', 'data-agent': agent },
        h('strong', {}, agent),
        ' ',
        h('span', { class: 'muted', 'data-testid': 'tl-agent-cost' }, costLine(all)),
        h(
          'ol',
          {},
          [...steps].map(([step, xs]) =>
            h(
              'li',
              { 'data-testid': 'tl-step' },
              step,
              ' ',
              h('span', { class: 'muted' }, costLine(xs.map((x) => x.call))),
              h(
                'ol',
                {},
                xs.map(({ call: c, n }) =>
                  h(
                    'li',
                    { 'data-testid': 'tl-call', class: c.error ? 'error-text' : '' },
                    `call ${n}: `,
                    c.ms !== undefined ? h('meter', { min: 0, max: maxMs, value: c.ms, 'aria-label': `latency of call ${n}` }) : null,
                    ` ${latencyText(c)} · ${c.tokens?.total !== undefined ? `${c.tokens.total} tokens` : 'tokens –'}`,
                    c.toolCalls?.length ? ` · tools: ${c.toolCalls.map((t) => t.name).join(', ')}` : '',
                    c.cached ? ' · cached' : '',
                    c.error ? ` · ✗ ${short(c.error, 80)}` : '',
                  ),
                ),
              ),
            ),
          ),
        ),
      );
    }),
  );
}

export function llmCallsPanel(runId: string, item: string, failed: boolean): HTMLElement {
  const body = h('div', {});
  const box = h('details', { class: 'llm-calls', 'data-testid': 'llm-calls', open: failed }, h('summary', {}, h('h3', { class: 'inline' }, 'LLM calls')), body);
  let loaded = false;
  const load = async () => {
    if (loaded) return;
    loaded = true;
    clear(body, h('div', { class: 'muted', role: 'status' }, 'loading…'));
    try {
      const r = await api<Calls>(`/api/run/calls?${qs({ run: runId, item })}`);
      const t = r.totals;
      // one <tbody> per call: its figures on a row, then its reply and messages on a row across the whole table (never a squeezed last column)
      const rows = r.calls.map((c, i) =>
        h(
          'tbody',
          { class: `call${c.error ? ' failed' : ''}`, 'data-testid': 'llm-call', 'data-stage': c.stage },
          h(
            'tr',
            {},
            h('td', { class: 'num' }, i + 1),
            h('td', {}, c.stage),
            h(
              'td',
              {},
              c.error ? h('span', { class: 'error-text' }, `✗ ${short(c.error, 120)}`) : h('span', { class: 'ok-text' }, c.reply === null ? '–' : '✓'),
            ),
            h('td', { class: 'num' }, latencyText(c)),
            h(
              'td',
              { class: 'num' },
              c.tokens?.total !== undefined
                ? `${c.tokens.total}${c.tokens.input !== undefined ? ` (${c.tokens.input} in / ${c.tokens.output ?? 0} out)` : ''}`
                : '–',
            ),
          ),
          h(
            'tr',
            {},
            h(
              'td',
              { colspan: 5, class: 'call-messages' },
              h(
                'details',
                { 'data-testid': 'call-open' },
                h('summary', {}, `reply and messages: ${c.reply ? short(c.reply.replace(/\s+/g, ' '), 80) : 'details'}`),
                callDetail(c),
              ),
            ),
          ),
        ),
      );
      clear(
        body,
        h(
          'p',
          { class: 'muted', 'data-testid': 'llm-calls-source' },
          r.source === 'recorded'
            ? `${r.calls.length} calls recorded in the run dir (llm/).`
            : t.calls === 0
              ? 'This item made no LLM calls (an offline run).'
              : `${r.calls.length} steps as the trace records them: this run recorded no LLM exchanges, so prompts, per-call latency and tokens are not available.`,
          itemTotalsText(t),
        ),
        r.problems.length ? errorBox(r.problems.join('; ')) : null,
        r.calls.length ? h('h4', {}, 'Timeline: agent → step → call') : null,
        r.calls.length ? callTimeline(r.calls) : null,
        r.calls.length
          ? scrollBox(
              'LLM calls',
              h(
                'table',
                { class: 'llm-calls', 'data-testid': 'llm-call-table' },
                h(
                  'thead',
                  {},
                  h(
                    'tr',
                    {},
                    ['#', 'stage', 'result', 'latency', 'tokens'].map((x) => h('th', { scope: 'col' }, x)),
                  ),
                ),
                rows,
              ),
            )
          : h('p', { class: 'muted' }, 'no LLM calls for this item'),
      );
    } catch (e) {
      loaded = false;
      clear(body, errorBox(e));
    }
  };
  box.addEventListener('toggle', () => {
    if ((box as HTMLDetailsElement).open) void load();
  });
  if (failed) void load();
  return box;
}
