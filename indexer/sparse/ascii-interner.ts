/**
 * Raw ASCII token → value (a term id, or -1 for a token the analyzer drops), looked up in place:
 * the caller hashes the token's characters while it scans them (FNV-1a: `HASH_START`, then
 * `hashStep` per character), and `get` finds the entry by that hash and the characters themselves,
 * compared against a byte pool. No substring is made and no `Map` is probed on a hit, which is most
 * tokens: a `Map.get` of a fresh `slice` cost ~400 ns a token in the build worker, this ~110–140 ns
 * on top of the ~50 ns scan and hash (docs/index-format.md, "Faster build II").
 *
 * Open addressing, linear probing; each slot is 4 Int32s (hash, key start, key length, value + 2;
 * 0 = empty), so a probe touches one cache line. It is a cache: `clear()` forgets everything.
 */
export const HASH_START = 0x811c9dc5 | 0;

/** One FNV-1a step: the hash of the token so far, extended by character code `c`. */
export function hashStep(h: number, c: number): number {
  return Math.imul(h ^ c, 16777619);
}

export const MISSING = -2;

export class AsciiInterner {
  private slots: Int32Array;
  private mask: number;
  private keys = new Uint8Array(1 << 16);
  private keyTop = 0;
  /** Entries held. */
  size = 0;

  constructor(initialSlots = 1 << 16) {
    this.slots = new Int32Array(initialSlots * 4);
    this.mask = initialSlots - 1;
  }

  /** The value stored for `text[start, end)` (hash `h`), or MISSING. */
  get(text: string, start: number, end: number, h: number): number {
    const slots = this.slots;
    const keys = this.keys;
    const len = end - start;
    let slot = h & this.mask;
    for (;;) {
      const o = slot << 2;
      const v = slots[o + 3];
      if (v === 0) return MISSING;
      if (slots[o] === h && slots[o + 2] === len) {
        let p = slots[o + 1];
        let i = start;
        while (i < end && keys[p] === text.charCodeAt(i)) {
          p++;
          i++;
        }
        if (i === end) return v - 2;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  /** Store `value` (≥ -1) for `text[start, end)` (all ASCII, hash `h`), which must not be present. */
  set(text: string, start: number, end: number, h: number, value: number): void {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    const len = end - start;
    if (this.keyTop + len > this.keys.length) {
      let cap = this.keys.length * 2;
      while (cap < this.keyTop + len) cap *= 2;
      const k = new Uint8Array(cap);
      k.set(this.keys.subarray(0, this.keyTop));
      this.keys = k;
    }
    const at = this.keyTop;
    for (let i = start; i < end; i++) this.keys[at + i - start] = text.charCodeAt(i);
    this.keyTop += len;
    this.insert(h, at, len, value + 2);
    this.size++;
  }

  private insert(h: number, at: number, len: number, v: number): void {
    const slots = this.slots;
    let slot = h & this.mask;
    while (slots[(slot << 2) + 3] !== 0) slot = (slot + 1) & this.mask;
    const o = slot << 2;
    slots[o] = h;
    slots[o + 1] = at;
    slots[o + 2] = len;
    slots[o + 3] = v;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.mask = old.length / 2 - 1;
    for (let o = 0; o < old.length; o += 4) if (old[o + 3] !== 0) this.insert(old[o], old[o + 1], old[o + 2], old[o + 3]);
  }

  /** Forget every entry (keeps the memory). */
  clear(): void {
    this.slots.fill(0);
    this.keyTop = 0;
    this.size = 0;
  }
}
