/**
 * The LLM-call inspector of an item (GET /api/run/calls): every call in order — stage, prompt
 * messages, reply, tool calls, the parse/validation error of the call that failed, latency and
 * tokens — like a trace tree: one row per call, its messages and reply on demand. Calls the run
 * did not record (no llm/<item>.jsonl) are shown as far as the trace has them, and said so.
 */
import { api, qs } from './api.js';
import { clear, errorBox, h, scrollBox } from './dom.js';

interface Call { stage: string; messages: { role: string; content: string }[]; reply: string | null; toolCalls?: { name: string; args: unknown }[]; error?: string; ms?: number; tokens?: { input?: number; output?: number; total?: number }; cached?: boolean }
interface Calls { source: 'recorded' | 'trace'; calls: Call[]; problems: string[]; totals: { calls: number | null; tokens: number | null; ms: number | null; error: string | null } }

const short = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

function callDetail(c: Call): HTMLElement {
  return h(
    'div',
    { class: 'call-detail' },
    c.error ? h('div', { class: 'error', role: 'note', 'data-testid': 'call-error' }, c.error) : null,
    c.messages.length
      ? c.messages.map((m) => h('div', { class: 'msg' }, h('div', { class: 'role' }, m.role), h('pre', { tabindex: 0 }, m.content)))
      : h('p', { class: 'muted' }, 'prompt not recorded'),
    c.toolCalls?.length ? h('div', { class: 'msg' }, h('div', { class: 'role' }, 'tool calls'), h('pre', { tabindex: 0 }, c.toolCalls.map((t) => `${t.name}(${JSON.stringify(t.args)})`).join('\n'))) : null,
    h('div', { class: 'msg' }, h('div', { class: 'role' }, 'reply'), c.reply !== null ? h('pre', { tabindex: 0, 'data-testid': 'call-reply' }, c.reply) : h('p', { class: 'muted' }, 'no reply')),
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
      const rows = r.calls.map((c, i) =>
        h(
          'tr',
          { class: c.error ? 'failed' : '', 'data-testid': 'llm-call', 'data-stage': c.stage },
          h('td', { class: 'num' }, i + 1),
          h('td', {}, c.stage),
          h('td', {}, c.error ? h('span', { class: 'error-text' }, `✗ ${short(c.error, 120)}`) : h('span', { class: 'ok-text' }, c.reply === null ? '–' : '✓')),
          h('td', { class: 'num' }, c.ms === undefined ? '–' : `${Math.round(c.ms)} ms`),
          h('td', { class: 'num' }, c.tokens?.total !== undefined ? `${c.tokens.total}${c.tokens.input !== undefined ? ` (${c.tokens.input} in / ${c.tokens.output ?? 0} out)` : ''}` : '–'),
          h('td', {}, h('details', { 'data-testid': 'call-open' }, h('summary', {}, c.reply ? short(c.reply.replace(/\s+/g, ' '), 80) : 'details'), callDetail(c))),
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
          ` Item totals: ${t.calls ?? '–'} calls, ${t.tokens?.toLocaleString('en-US') ?? '–'} tokens, ${t.ms ?? '–'} ms.`,
        ),
        r.problems.length ? errorBox(`unreadable exchange lines: ${r.problems.join('; ')}`) : null,
        r.calls.length
          ? scrollBox('LLM calls', h('table', { class: 'llm-calls', 'data-testid': 'llm-call-table' }, h('thead', {}, h('tr', {}, ['#', 'stage', 'result', 'latency', 'tokens', 'reply and messages'].map((x) => h('th', { scope: 'col' }, x)))), h('tbody', {}, rows)))
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
