/** Hash routes of the explorer (#/search, #/eval, #/runs, #/compare, #/args, #/passage) and navigation between them. */
export const VIEWS = ['search', 'eval', 'runs', 'compare', 'args', 'passage'] as const;
export type View = (typeof VIEWS)[number];

export interface Route {
  view: View;
  params: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const [path, query] = hash.replace(/^#\/?/, '').split('?');
  const view = (VIEWS as readonly string[]).includes(path) ? (path as View) : 'search';
  return { view, params: new URLSearchParams(query ?? '') };
}

/** Navigate to a view; navigating to the current route renders it again (main.ts listens to hashchange). */
export function go(view: View, params: Record<string, string> = {}): void {
  const q = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== '' && v !== undefined)).toString();
  const next = `#/${view}${q ? `?${q}` : ''}`;
  if (location.hash === next) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = next;
}
