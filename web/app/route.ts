/** Hash routes of the explorer (#/search, #/eval, #/runs, #/compare, #/args) and navigation between them. */
export interface Route {
  view: 'search' | 'eval' | 'runs' | 'compare' | 'args';
  params: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const [path, query] = hash.replace(/^#\/?/, '').split('?');
  const view = path === 'runs' || path === 'args' || path === 'eval' || path === 'compare' ? path : 'search';
  return { view, params: new URLSearchParams(query ?? '') };
}

/** Navigate to a view; navigating to the current route renders it again (main.ts listens to hashchange). */
export function go(view: Route['view'], params: Record<string, string> = {}): void {
  const q = new URLSearchParams(params).toString();
  const next = `#/${view}${q ? `?${q}` : ''}`;
  if (location.hash === next) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = next;
}
