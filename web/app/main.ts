/** Entry point of the explorer's browser app: hash routes #/search, #/eval, #/runs, #/compare, #/args. */
import { api, type Info } from './api.js';
import { renderArgumentView } from './argument-view.js';
import { renderCompareView } from './compare-view.js';
import { renderEvalView } from './eval-view.js';
import { clear, errorBox } from './dom.js';
import { renderRunView } from './run-view.js';
import { renderSearchView } from './search-view.js';
import { parseRoute } from './route.js';

let info: Info | undefined;

async function render(): Promise<void> {
  const root = document.getElementById('view')!;
  const route = parseRoute(location.hash);
  for (const a of document.querySelectorAll<HTMLAnchorElement>('nav a')) a.classList.toggle('active', a.dataset.view === route.view);
  try {
    info ??= await api<Info>('/api/info');
    const status = document.getElementById('status')!;
    status.textContent = [info.index ? `${info.index.corpus} · ${info.index.passages.toLocaleString()} passages` : 'no index', info.llm.available ? `LLM: ${info.llm.label}` : 'offline advocate'].join(' · ');
    if (route.view === 'search') await renderSearchView(root, info, route.params);
    else if (route.view === 'runs') await renderRunView(root, route.params, 'case');
    else if (route.view === 'eval') await renderEvalView(root, info, route.params);
    else if (route.view === 'compare') await renderCompareView(root, route.params);
    else await renderArgumentView(root, route.params);
  } catch (e) {
    clear(root, errorBox(e));
  }
}

window.addEventListener('hashchange', () => void render());
void render();
