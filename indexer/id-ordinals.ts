/**
 * The index build's duplicate-id check without a JS string per id (issue 38): every key the build
 * has seen, kept off the garbage-collected heap, so a major GC no longer marks 10M strings and a
 * Map's entries again and again during ingest (a Map<string, number> over 10M ids held ~815 MiB).
 *
 * Keys are written as bytes, one UTF-16 code unit at a time (1 byte below U+0080, 2 below U+0800,
 * else 3, lone surrogates included: CESU-8 style), so two strings get equal bytes only when they are
 * equal — no U+FFFD replacement makes two distinct ids one. Each key's 64-bit hash (two 32-bit
 * multiplicative hashes of its code units) places it in an open-addressing table of Uint32 slots
 * (linear probing, at most 3/4 full); a slot whose 32-bit tag matches is confirmed by comparing the
 * stored bytes, so a hash collision is never taken for a duplicate.
 *
 * Storage: pages of 65,536 keys, each with its hashes and byte ends (12 bytes a key) and a byte
 * buffer trimmed to size once the page is full: at 10M ids ~20 bytes a key plus the key bytes.
 */

const PAGE_BITS = 16;
const PAGE = 1 << PAGE_BITS;
const PAGE_MASK = PAGE - 1;

interface Page {
  /** Per key: h1, h2, end of its bytes in `bytes`. */
  meta: Uint32Array;
  bytes: Uint8Array;
  used: number;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class IdOrdinals {
  private pages: Page[] = [];
  /** Per slot: key index + 1 (0 = empty). */
  private slots = new Uint32Array(1 << 12);
  /** Per slot: the key's h2, checked before its bytes. */
  private tags = new Uint32Array(1 << 12);
  private mask = (1 << 12) - 1;
  private n = 0;
  // the key being looked up, encoded once
  private key = new Uint8Array(256);
  private keyLen = 0;
  private h1 = 0;
  private h2 = 0;

  /** Keys held. */
  get size(): number {
    return this.n;
  }

  /**
   * The 0-based index (order of first addition) of `key` when it was added before; otherwise adds
   * it as index `size` and returns -1.
   */
  addOrFind(key: string): number {
    this.encode(key);
    const h1 = this.h1;
    const h2 = this.h2;
    let s = h1 & this.mask;
    for (;;) {
      const e = this.slots[s];
      if (e === 0) break;
      if (this.tags[s] === h2 && this.sameBytes(e - 1)) return e - 1;
      s = (s + 1) & this.mask;
    }
    const index = this.append(h1, h2);
    this.slots[s] = index + 1;
    this.tags[s] = h2;
    if (this.n * 4 > this.slots.length * 3) this.grow();
    return -1;
  }

  /** Frees everything held. */
  clear(): void {
    this.pages = [];
    this.slots = new Uint32Array(1 << 12);
    this.tags = new Uint32Array(1 << 12);
    this.mask = (1 << 12) - 1;
    this.n = 0;
  }

  /** Encode `key` into this.key (≤ 3 bytes a code unit) and set its two hashes. */
  private encode(key: string): void {
    const len = key.length;
    if (len * 3 > this.key.length) this.key = new Uint8Array(Math.max(len * 3, this.key.length * 2));
    const b = this.key;
    let h1 = 0x811c9dc5 ^ len;
    let h2 = 0x9747b28c ^ Math.imul(len, 0x5bd1e995);
    let o = 0;
    for (let i = 0; i < len; i++) {
      const c = key.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul((h2 << 5) | (h2 >>> 27), 0x5bd1e995) ^ c;
      if (c < 0x80) b[o++] = c;
      else if (c < 0x800) {
        b[o++] = 0xc0 | (c >> 6);
        b[o++] = 0x80 | (c & 0x3f);
      } else {
        b[o++] = 0xe0 | (c >> 12);
        b[o++] = 0x80 | ((c >> 6) & 0x3f);
        b[o++] = 0x80 | (c & 0x3f);
      }
    }
    this.keyLen = o;
    this.h1 = this.finish(h1);
    this.h2 = this.finish(h2 ^ o);
  }

  /** A hash's last mixing step (a test makes every key collide by returning a constant). */
  protected finish(h: number): number {
    return fmix(h);
  }

  private sameBytes(index: number): boolean {
    const page = this.pages[index >>> PAGE_BITS];
    const i = index & PAGE_MASK;
    const start = i === 0 ? 0 : page.meta[3 * i - 1];
    const end = page.meta[3 * i + 2];
    const len = this.keyLen;
    if (end - start !== len) return false;
    const bytes = page.bytes;
    const key = this.key;
    for (let j = 0; j < len; j++) if (bytes[start + j] !== key[j]) return false;
    return true;
  }

  private append(h1: number, h2: number): number {
    const index = this.n++;
    const i = index & PAGE_MASK;
    if (i === 0) {
      const last = this.pages.at(-1);
      // a full page keeps only the bytes it uses
      if (last && last.used < last.bytes.length) last.bytes = last.bytes.slice(0, last.used);
      this.pages.push({ meta: new Uint32Array(3 * PAGE), bytes: new Uint8Array(Math.max(1 << 16, this.keyLen)), used: 0 });
    }
    const page = this.pages[this.pages.length - 1];
    const len = this.keyLen;
    if (page.used + len > page.bytes.length) {
      const grown = new Uint8Array(Math.max(page.bytes.length * 2, page.used + len));
      grown.set(page.bytes.subarray(0, page.used));
      page.bytes = grown;
    }
    page.bytes.set(this.key.subarray(0, len), page.used);
    page.used += len;
    page.meta[3 * i] = h1;
    page.meta[3 * i + 1] = h2;
    page.meta[3 * i + 2] = page.used;
    return index;
  }

  /** Double the table, re-placing every key by its stored hash. */
  private grow(): void {
    const size = this.slots.length * 2;
    const slots = new Uint32Array(size);
    const tags = new Uint32Array(size);
    const mask = size - 1;
    for (let index = 0; index < this.n; index++) {
      const meta = this.pages[index >>> PAGE_BITS].meta;
      const i = index & PAGE_MASK;
      let s = meta[3 * i] & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = index + 1;
      tags[s] = meta[3 * i + 1];
    }
    this.slots = slots;
    this.tags = tags;
    this.mask = mask;
  }
}
