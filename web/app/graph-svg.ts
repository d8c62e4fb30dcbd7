/** SVG drawing of an ACAL argument graph: the claim on top, supporting arguments on the left, attacking ones on the right; edges to the claim and argument relations. */
import { fmt, s } from './dom.js';

export interface GArg {
  id: string;
  agent: string;
  side: 'support' | 'attack';
  text: string;
  baseStrength: number;
  status: string;
  origin: string;
  humanBase?: number;
  citedPassageIds: string[];
}
export interface GRel {
  from: string;
  to: string;
  kind: 'support' | 'attack';
  confidence: number;
  origin: string;
}
export interface GResult {
  claimStrength: number;
  strengths: Record<string, number>;
  effectiveBase: Record<string, number>;
  clashDelta: Record<string, number>;
  verdict: string;
  thresholdVerdict: string;
  decidedBy: string;
  escalation: string;
  inBand: boolean;
  semantics: string;
}
export interface Graph {
  itemId: string;
  task?: string;
  claim: { text: string; base: number };
  caseText: string;
  arguments: GArg[];
  relations: GRel[];
  clash: { outcomes: { support: string; attack: string; winner: string; reason?: string }[] };
  settings: { semantics: string; threshold: number; band: [number, number] };
  revision: number;
  result: GResult;
}

const W = 170;
const H = 58;

export function graphSvg(g: Graph, onPick: (id: string) => void): SVGElement {
  const sup = g.arguments.filter((a) => a.side === 'support');
  const att = g.arguments.filter((a) => a.side === 'attack');
  const perRow = 2;
  const rows = Math.max(Math.ceil(sup.length / perRow), Math.ceil(att.length / perRow), 1);
  const width = 2 * perRow * (W + 20) + 60;
  const height = 120 + rows * (H + 50) + 20;
  const pos = new Map<string, { x: number; y: number }>();
  pos.set('claim', { x: width / 2 - 130, y: 14 });
  const place = (list: GArg[], x0: number) =>
    list.forEach((a, i) => pos.set(a.id, { x: x0 + (i % perRow) * (W + 20), y: 130 + Math.floor(i / perRow) * (H + 50) }));
  place(sup, 10);
  place(att, width / 2 + 30);
  const center = (id: string, dy = 0) => {
    const p = pos.get(id)!;
    return { x: p.x + (id === 'claim' ? 130 : W / 2), y: p.y + dy };
  };
  const edges: SVGElement[] = [];
  for (const a of g.arguments) {
    const from = center(a.id, 0);
    const to = center('claim', 64);
    edges.push(
      s('line', {
        x1: from.x,
        y1: from.y,
        x2: to.x,
        y2: to.y,
        class: `edge ${a.side}${a.status === 'rejected' ? ' rejected' : ''}`,
        'marker-end': `url(#arrow-${a.side})`,
      }),
    );
  }
  const seen = new Set<string>();
  for (const r of g.relations) {
    if (!pos.has(r.from) || !pos.has(r.to)) continue;
    const key = [r.from, r.to].sort().join('|') + r.kind;
    const both = g.relations.some((x) => x.from === r.to && x.to === r.from && x.kind === r.kind);
    if (both && seen.has(key)) continue;
    seen.add(key);
    const a = center(r.from, H / 2);
    const b = center(r.to, H / 2);
    const mx = (a.x + b.x) / 2;
    const my = Math.max(a.y, b.y) + 60;
    edges.push(
      s(
        'path',
        { d: `M${a.x},${a.y + H / 2} Q${mx},${my} ${b.x},${b.y + H / 2}`, class: `rel ${r.kind}`, 'data-rel': `${r.from}-${r.to}` },
        s('title', {}, `${r.from} ${r.kind}s ${r.to}${both ? ' (both ways)' : ''} · confidence ${fmt(r.confidence, 2)} · ${r.origin}`),
      ),
    );
  }
  const res = g.result;
  const claimBox = s(
    'g',
    { class: `node claim ${res.verdict === 'Yes' ? 'yes' : 'no'}`, transform: `translate(${pos.get('claim')!.x},${pos.get('claim')!.y})` },
    s('rect', { width: 260, height: 64, rx: 8 }),
    s('text', { x: 130, y: 22, 'text-anchor': 'middle', class: 'label' }, 'claim'),
    s('text', { x: 130, y: 44, 'text-anchor': 'middle', class: 'sigma', 'data-testid': 'svg-claim-sigma' }, `σ ${fmt(res.claimStrength)} → ${res.verdict}`),
    s('title', {}, g.claim.text),
  );
  const nodes = g.arguments.map((a) => {
    const p = pos.get(a.id)!;
    const eff = res.effectiveBase[a.id];
    const sigma = res.strengths[a.id];
    return s(
      'g',
      { class: `node ${a.side} ${a.status}`, transform: `translate(${p.x},${p.y})`, 'data-node': a.id, onclick: () => onPick(a.id) },
      s('rect', { width: W, height: H, rx: 6 }),
      s('text', { x: 8, y: 18, class: 'label' }, `${a.id} · ${a.agent.length > 18 ? a.agent.slice(0, 17) + '…' : a.agent}`),
      s(
        'text',
        { x: 8, y: 36, class: 'small' },
        `τ ${fmt(a.baseStrength, 2)}${eff !== undefined && Math.abs(eff - a.baseStrength) > 1e-9 ? ` → ${fmt(eff, 2)}` : ''}`,
      ),
      s('text', { x: 8, y: 51, class: 'sigma', 'data-testid': `svg-sigma-${a.id}` }, a.status === 'rejected' ? 'rejected' : `σ ${fmt(sigma, 3)}`),
      s('title', {}, a.text),
    );
  });
  return s(
    'svg',
    { viewBox: `0 0 ${width} ${height}`, width, height, class: 'graph', 'data-testid': 'graph-svg', role: 'img', 'aria-label': 'argument graph' },
    s(
      'defs',
      {},
      ['support', 'attack'].map((k) =>
        s(
          'marker',
          { id: `arrow-${k}`, viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
          s('path', { d: 'M0,0 L10,5 L0,10 z', class: `arrowhead ${k}` }),
        ),
      ),
    ),
    s('text', { x: 10, y: 118, class: 'col-label support' }, 'support'),
    s('text', { x: width / 2 + 30, y: 118, class: 'col-label attack' }, 'attack'),
    edges,
    claimBox,
    nodes,
  );
}
