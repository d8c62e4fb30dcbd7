/**
 * The least of a DOM that the explorer's view functions (web/app, built with dom.ts `h`) need, so
 * a view can be rendered in-process and its tree read: elements with attributes, children, text
 * nodes, classList and listeners (never fired). Strings become text nodes as in a browser, so a test
 * can check that trace text stays text (no markup is parsed from it). `installFakeDom` sets
 * `globalThis.document` and returns the function that removes it (test files share workers).
 */

export class FakeText {
  readonly nodeType = 3;
  constructor(public data: string) {}
  get textContent(): string {
    return this.data;
  }
}

export class FakeElement {
  readonly nodeType = 1;
  readonly attributes = new Map<string, string>();
  childNodes: (FakeElement | FakeText)[] = [];
  hidden = false;
  constructor(
    readonly tagName: string,
    readonly namespaceURI: string | null = null,
  ) {}
  get id(): string {
    return this.attributes.get('id') ?? '';
  }
  set id(v: string) {
    this.attributes.set('id', v);
  }
  setAttribute(k: string, v: string): void {
    this.attributes.set(k, String(v));
  }
  getAttribute(k: string): string | null {
    return this.attributes.get(k) ?? null;
  }
  addEventListener(): void {}
  append(...nodes: (FakeElement | FakeText | string)[]): void {
    for (const n of nodes) this.childNodes.push(typeof n === 'string' ? new FakeText(n) : n);
  }
  replaceChildren(...nodes: (FakeElement | FakeText | string)[]): void {
    this.childNodes = [];
    this.append(...nodes);
  }
  get children(): FakeElement[] {
    return this.childNodes.filter((n): n is FakeElement => n instanceof FakeElement);
  }
  get textContent(): string {
    return this.childNodes.map((n) => n.textContent).join('');
  }
  get classList() {
    const get = () => new Set((this.attributes.get('class') ?? '').split(/\s+/).filter(Boolean));
    const set = (s: Set<string>) => this.attributes.set('class', [...s].join(' '));
    return {
      add: (...c: string[]) => set(new Set([...get(), ...c])),
      remove: (...c: string[]) => set(new Set([...get()].filter((x) => !c.includes(x)))),
      contains: (c: string) => get().has(c),
      toggle: (c: string, on?: boolean) => {
        const s = get();
        const want = on ?? !s.has(c);
        if (want) s.add(c);
        else s.delete(c);
        set(s);
        return want;
      },
    };
  }
  /** This element and every element below it, in document order. */
  descendants(): FakeElement[] {
    return [this, ...this.children.flatMap((c) => c.descendants())];
  }
  /** The elements below (or at) this one with `data-testid` = id. */
  byTestId(id: string): FakeElement[] {
    return this.descendants().filter((e) => e.getAttribute('data-testid') === id);
  }
}

/** Views return HTMLElement (or lists of them): the fake behind that type. */
export const fake = (e: unknown): FakeElement => e as FakeElement;

/** A view's elements under one root, as the run view appends them (the nulls it leaves out). */
export function viewRoot(els: readonly unknown[]): FakeElement {
  const r = new FakeElement('DIV');
  r.append(...els.filter((e) => e !== null).map(fake));
  return r;
}

export function installFakeDom(): () => void {
  const g = globalThis as Record<string, unknown>;
  const before = g.document;
  g.document = {
    title: '',
    createElement: (tag: string) => new FakeElement(tag.toUpperCase()),
    createElementNS: (ns: string, tag: string) => new FakeElement(tag, ns),
  };
  return () => {
    if (before === undefined) delete g.document;
    else g.document = before;
  };
}
