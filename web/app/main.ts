/**
 * Entry point of the explorer's browser app: hash routes #/search, #/eval, #/runs, #/compare,
 * #/args, #/passage. Each view renders one h1 and sets the page title (dom.ts viewHeading). Focus
 * after a render: what the view marked with data-focus (what an action opened, e.g. an item's
 * trace), else the control that had it if it still exists (a sort button), else the view's h1 —
 * never left on <body>.
 */
import { api, type Info } from './api.js';
import { renderArgumentView } from './argument-view.js';
import { renderCompareView } from './compare-view.js';
import { renderEvalView } from './eval-view.js';
import { clear, errorBox, h, viewHeading } from './dom.js';
import { renderPassageView } from './passage-view.js';
import { renderRunView } from './run-view.js';
import { renderSearchView } from './search-view.js';
import { parseRoute } from './route.js';

let info: Info | undefined;
let first = true;
let seq = 0;

/** Where focus goes once a view has rendered (see the module comment). */
export function settleFocus(root: HTMLElement, previousTestId: string | null): void {
  const target =
    root.querySelector<HTMLElement>('[data-focus]') ??
    (previousTestId ? root.querySelector<HTMLElement>(`[data-testid="${CSS.escape(previousTestId)}"]`) : null) ??
    root.querySelector<HTMLElement>('h1');
  if (!target) return;
  target.removeAttribute('data-focus');
  if (!target.hasAttribute('tabindex') && !/^(A|BUTTON|INPUT|SELECT|TEXTAREA|SUMMARY)$/.test(target.tagName)) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
  // the target in view: an opened trace scrolls to its header (not 400 px above the viewport)
  if (target.tagName !== 'H1' || target.closest('[data-focus-scroll]')) target.scrollIntoView({ block: 'start' });
}

async function render(): Promise<void> {
  const root = document.getElementById('view')!;
  const route = parseRoute(location.hash);
  const mine = ++seq;
  const active = document.activeElement as HTMLElement | null;
  const previousTestId = first || !active || active === document.body ? null : active.getAttribute('data-testid');
  for (const a of document.querySelectorAll<HTMLAnchorElement>('nav a')) {
    const on = a.dataset.view === route.view;
    a.classList.toggle('active', on);
    if (on) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  try {
    info ??= await api<Info>('/api/info');
    const status = document.getElementById('status')!;
    status.textContent = [
      info.index ? `${info.index.corpus} · ${info.index.passages.toLocaleString('en-US')} passages` : 'no index',
      info.llm.available ? `LLM: ${info.llm.label}` : 'offline advocate',
    ].join(' · ');
    if (route.view === 'search') await renderSearchView(root, info, route.params);
    else if (route.view === 'runs') await renderRunView(root, route.params);
    else if (route.view === 'eval') await renderEvalView(root, info, route.params);
    else if (route.view === 'compare') await renderCompareView(root, route.params);
    else if (route.view === 'passage') await renderPassageView(root, route.params);
    else await renderArgumentView(root, route.params);
  } catch (e) {
    clear(root, viewHeading('Error'), errorBox(e));
  }
  if (mine !== seq) return; // a later navigation took over
  if (!root.querySelector('h1')) root.prepend(h('h1', { class: 'visually-hidden', tabindex: -1 }, document.title.replace(/ · lexcase explorer$/, '')));
  if (first) {
    first = false; // the first load leaves focus where the browser put it (an autofocus field) unless a deep link opened something
    if (root.querySelector('[data-focus]')) settleFocus(root, null);
    return;
  }
  settleFocus(root, previousTestId);
}

// the skip link moves focus to the view's h1 (its href would otherwise change the hash route)
document.querySelector('a.skip-link')?.addEventListener('click', (e) => {
  e.preventDefault();
  const h1 = document.querySelector<HTMLElement>('#view h1');
  h1?.focus();
  h1?.scrollIntoView({ block: 'start' });
});
window.addEventListener('hashchange', () => void render());
void render();
