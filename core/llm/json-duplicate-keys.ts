/**
 * A JSON object that names one key twice with different values (`{"answer": "B", "answer": "C"}`):
 * JSON.parse keeps the last value without a word, so a reply that names two answers was scored by
 * the second. RFC 8259 leaves such an object's meaning open ("the names within an object SHOULD be
 * unique"); a reply that holds one is refused as naming no one answer, like a reply that holds two
 * different objects (structured.ts). A key repeated with the same value names one answer and passes.
 *
 * Written here rather than taken from a package: the check runs only on text JSON.parse has already
 * accepted, so it needs no error reporting, and it must compare the repeated keys' values, which the
 * duplicate-key validators on npm (json-dup-key-validator, jsonc-parser's visitor) leave to the caller.
 */

/** A key an object names twice with different values: where (`path`, '' for the top object) and the values, as JSON, in order. */
export interface ConflictingKey {
  path: string;
  key: string;
  values: string[];
}

/** The first key an object of `text` (text JSON.parse accepts) names twice with different values, or undefined. */
export function conflictingKey(text: string): ConflictingKey | undefined {
  // a repeated key needs a repeated quoted string followed by a colon: most replies have none, so they skip the walk
  if (!/"\s*:[\s\S]*"\s*:/.test(text)) return undefined;
  const found: ConflictingKey[] = [];
  new Walker(text, found).value('');
  return found[0];
}

/** The error of a reply whose object names a key twice with different values. */
export function conflictingKeyMessage(c: ConflictingKey): string {
  const where = c.path ? ` (in ${c.path})` : '';
  return `the reply's JSON object names "${c.key}" ${c.values.length} times with different values${where}: ${c.values.join(', then ')}: none is taken for the answer`;
}

/** A recursive walk over valid JSON text, recording each object's conflicting keys into `found`. */
class Walker {
  private i = 0;

  constructor(
    private readonly t: string,
    private readonly found: ConflictingKey[],
  ) {}

  /** Walk one value starting at (or after whitespace from) the cursor; the cursor ends just past it. */
  value(path: string): void {
    this.ws();
    const ch = this.t[this.i];
    if (ch === '{') this.object(path);
    else if (ch === '[') this.array(path);
    else if (ch === '"') this.string();
    else while (this.i < this.t.length && !/[\s,\]}]/.test(this.t[this.i])) this.i++;
  }

  private object(path: string): void {
    const seen = new Map<string, string[]>();
    this.i++;
    this.ws();
    if (this.t[this.i] === '}') {
      this.i++;
      return;
    }
    for (;;) {
      this.ws();
      const keyStart = this.i;
      this.string();
      const key = JSON.parse(this.t.slice(keyStart, this.i)) as string;
      this.ws();
      this.i++; // ':'
      this.ws();
      const valueStart = this.i;
      this.value(path ? `${path}.${key}` : key);
      const value = JSON.stringify(JSON.parse(this.t.slice(valueStart, this.i)));
      seen.set(key, [...(seen.get(key) ?? []), value]);
      this.ws();
      if (this.t[this.i++] === '}') break; // else ','
    }
    for (const [key, values] of seen) if (new Set(values).size > 1) this.found.push({ path, key, values });
  }

  private array(path: string): void {
    this.i++;
    this.ws();
    if (this.t[this.i] === ']') {
      this.i++;
      return;
    }
    for (let n = 0; ; n++) {
      this.value(`${path}[${n}]`);
      this.ws();
      if (this.t[this.i++] === ']') break;
    }
  }

  private string(): void {
    this.i++;
    while (this.i < this.t.length && this.t[this.i] !== '"') this.i += this.t[this.i] === '\\' ? 2 : 1;
    this.i++;
  }

  private ws(): void {
    while (this.i < this.t.length && /\s/.test(this.t[this.i])) this.i++;
  }
}
