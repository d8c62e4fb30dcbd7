/** Calls to the explorer's JSON API; a non-2xx reply throws its {error} message. */
export async function api<T = any>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(json?.error ?? `HTTP ${res.status}`);
  return json as T;
}

export const qs = (o: Record<string, string | number | undefined>): string =>
  Object.entries(o)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

export interface Info {
  version: string;
  index: { name: string; corpus: string; passages: number; methods: string[] } | null;
  runs: boolean;
  llm: { available: boolean; label?: string };
  /** k of a search and of evidence when the URL has none (retrieval/default-k.ts, sent by the server). */
  defaults: { searchK: number; evidenceK: number };
}
