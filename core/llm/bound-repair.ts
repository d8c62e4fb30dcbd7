/**
 * Repair of numbers a server wrote outside the bounds of the schema it was sent. llama.cpp's and
 * Ollama's grammars (and any server without guided decoding) drop `minimum`/`maximum` silently, so
 * a schema-following reply can hold an ACAL score of 7 or -3 where the schema says 0.1–1. Asking
 * again rarely helps (the same server ignores the same bound again), so such a number is clamped
 * to the bound it crossed, and every clamp is reported: the structured-output reader
 * (structured.ts) counts it in the item's repair tally (`countRepairs`, below) and marks the
 * exchange, the runner writes the tally into results.jsonl (`repairs`), and report.md lists it.
 *
 * Only inclusive bounds (`minimum`, `maximum`) are clamped; a number past an exclusive bound has
 * no nearest valid value and goes to the re-ask path like any other invalid reply.
 * `repairBounds(value, jsonSchema)` walks the value along the JSON Schema that was SENT (the
 * strict rendering: properties, items, anyOf, $ref) and returns a repaired copy and the repairs.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

type Json = Record<string, unknown>;

export interface BoundRepair {
  /** Where in the value: "scores.s1.score". */
  path: string;
  /** The schema property the number sat under ("score"): what the tallies count by. */
  field: string;
  from: number;
  to: number;
}

const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

function typesOf(node: Json): string[] {
  return node.type === undefined ? [] : Array.isArray(node.type) ? (node.type as string[]) : [node.type as string];
}

/** `value` with every number outside an inclusive bound of `schema` clamped to it; `repairs` lists each clamp. */
export function repairBounds(value: unknown, schema: Json): { value: unknown; repairs: BoundRepair[] } {
  const repairs: BoundRepair[] = [];
  const resolve = (node: Json): Json => {
    if (typeof node.$ref !== 'string') return node;
    const target = node.$ref
      .replace(/^#\/?/, '')
      .split('/')
      .filter(Boolean)
      .reduce<unknown>((o, k) => (isObj(o) ? o[k] : undefined), schema);
    return isObj(target) ? target : node;
  };
  const visit = (v: unknown, raw: unknown, path: string[], depth: number): unknown => {
    if (!isObj(raw) || depth > 64) return v;
    const node = resolve(raw);
    if (Array.isArray(node.anyOf)) {
      // the branch the value's kind belongs to (strict schemas use anyOf for [T, null])
      const kind = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? 'number' : typeof v;
      const branch = (node.anyOf as unknown[])
        .map((b) => (isObj(b) ? resolve(b) : {}))
        .find((b) => typesOf(b).some((t) => t === kind || (kind === 'number' && t === 'integer')));
      return branch ? visit(v, branch, path, depth + 1) : v;
    }
    if (typeof v === 'number' && Number.isFinite(v)) {
      const lo = typeof node.minimum === 'number' ? node.minimum : undefined;
      const hi = typeof node.maximum === 'number' ? node.maximum : undefined;
      const to = lo !== undefined && v < lo ? lo : hi !== undefined && v > hi ? hi : v;
      if (to !== v) repairs.push({ path: path.join('.') || '(root)', field: [...path].reverse().find((p) => !/^\d+$/.test(p)) ?? '(root)', from: v, to });
      return to;
    }
    if (Array.isArray(v)) return isObj(node.items) ? v.map((x, i) => visit(x, node.items, [...path, String(i)], depth + 1)) : v;
    if (isObj(v) && isObj(node.properties)) {
      const props = node.properties;
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k in props ? visit(x, props[k], [...path, k], depth + 1) : x]));
    }
    return v;
  };
  const out = visit(value, schema, [], 0);
  return { value: repairs.length ? out : value, repairs };
}

/** Repairs counted per field name ("argument strength scores: score" → 3), for one item. */
export class RepairTally {
  readonly byField = new Map<string, number>();

  add(field: string, n = 1): void {
    this.byField.set(field, (this.byField.get(field) ?? 0) + n);
  }

  /** The tally as a plain object (sorted by field), or undefined when nothing was repaired. */
  toRecord(): Record<string, number> | undefined {
    if (this.byField.size === 0) return undefined;
    return Object.fromEntries([...this.byField].sort(([a], [b]) => a.localeCompare(b, 'en')));
  }
}

const scope = new AsyncLocalStorage<RepairTally>();

/** Run `fn` with `tally` counting the repairs of every structured reply it reads (the runner: one per item). */
export function withRepairTally<T>(tally: RepairTally, fn: () => T): T {
  return scope.run(tally, fn);
}

/** Count `repairs` of the step `what` in the current tally (none outside a tally). */
export function countRepairs(what: string, repairs: BoundRepair[]): void {
  const t = scope.getStore();
  if (t) for (const r of repairs) t.add(`${what}: ${r.field}`);
}

/** "scores.s1.score 7 → 1" for traces and exchange records. */
export function describeRepair(r: BoundRepair): string {
  return `${r.path} ${r.from} → ${r.to}`;
}
