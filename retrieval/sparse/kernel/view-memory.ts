/**
 * One WebAssembly kernel and linear memory per scoring view (per doc range: the calling thread's
 * view, or one query worker's), holding the view's cached postings in place: the compact lists and
 * the dense tf bytes of decoded-postings.ts are allocated here (first fit in the holes lists evicted
 * from the cache left, list-cache.ts, else at the end), so the kernel's walks read them where they are instead of
 * blocked-taat.ts copying every list's chunk and every dense list's block into scratch memory for
 * every query (issue 18, third session: ~9 % of a worker's time); the range's BM25 norms and QLD
 * log-lengths are held here too (`holdRange`). Each query's scratch (block
 * scores, tables, copies of lists that are not resident) sits above the allocations.
 *
 * The memory grows (WebAssembly memories cannot shrink) and a growth detaches every typed array
 * over the old buffer, so holders keep byte offsets and take views through `bytes()` / `u16()`
 * at the time of use, or keep typed arrays of their own by extending MemoryViews (re-taken after
 * a growth). Allocations are refused (`alloc` returns −1; the caller keeps an ordinary typed array
 * and the walks copy it as before) past RESIDENT_MAX_BYTES, so the 32-bit memory keeps room for
 * the scratch. The memory is garbage-collected with its view.
 *
 * Bounded (issue 38 item 3): the cache allocates under a limit (`alloc(bytes, limit)`), and
 * `release` gives an evicted list's bytes back (holes, coalesced; a hole at the end lowers `used`),
 * so the resident part stays ≤ the cache budget + the per-document arrays held (`heldBytes`).
 */
import { WASM_PAGE, type WasmMemory } from '../../../core/wasm.js';
import { createDecoder, createKernel, type DecodeKernel, type WalkKernel } from './kernel.js';
import type { ScoringView } from '../../../indexer/sparse/scoring-view.js';

/** How far above the lowest place the decode scratch is put when it moves (scratchAt). */
const SCRATCH_SLACK = 32 << 20;

/** Resident allocations stop here (addresses stay below 2^31 with the scratch above them). */
export const RESIDENT_MAX_BYTES = 1.75 * 2 ** 30;

/**
 * Typed arrays over a WebAssembly memory, kept by a subclass: a growth detaches every array over
 * the old buffer, so `refresh()` (called before each use) has the subclass take them again
 * (`retake`) whenever the memory's buffer is not the one they were taken over.
 */
export abstract class MemoryViews {
  private buf: ArrayBuffer | undefined;

  constructor(private readonly wasm: WasmMemory) {}

  /** Take the typed arrays over `buf`, the memory's current buffer. */
  protected abstract retake(buf: ArrayBuffer): void;

  protected refresh(): void {
    const b = this.wasm.buffer;
    if (b === this.buf) return;
    this.buf = b;
    this.retake(b);
  }
}

export class ViewMemory extends MemoryViews {
  readonly kernel: WalkKernel;
  /** End of the resident allocations: per-query scratch starts at or after it. */
  used = 64;
  /** Bytes of the per-document arrays held (holdRange): never released while the view lives. */
  heldBytes = 0;
  /** Free holes below `used`: [offset, bytes] pairs sorted by offset, 16-aligned, never adjacent. */
  private holes: number[] = [];
  private u8v = new Uint8Array(0);
  private u16v = new Uint16Array(0);
  private dec: DecodeKernel | undefined;

  constructor(private readonly maxResident = RESIDENT_MAX_BYTES) {
    const kernel = createKernel();
    super(kernel.memory);
    this.kernel = kernel;
  }

  /** Start of the decode scratch (scratchAt): 0 until the first decode. */
  private scratchOff = 0;

  /**
   * Offset of `bytes` of scratch (16-aligned) at or above `from`, the memory grown to hold them:
   * where the last scratch was while that is still at or above `from`, else 32 MiB above `from` (so
   * that it moves only after the allocations below grew by that much). A scratch that stays put
   * reuses the pages it touched; one above `used` at each call would touch fresh pages every time the
   * allocations grew (a page fault per 4 KiB; decoded-postings.ts decodes a list here, above the
   * room its cache allocation could take).
   */
  scratchAt(from: number, bytes: number): number {
    if (this.scratchOff < from) this.scratchOff = alignedSize(from + SCRATCH_SLACK);
    this.ensure(this.scratchOff + bytes);
    return this.scratchOff;
  }

  /** The posting decoder (decode.wat) over this memory, made on first use. */
  get decoder(): DecodeKernel {
    this.dec ??= createDecoder(this.kernel.memory);
    return this.dec;
  }

  /**
   * `bytes` bytes (16-aligned offset; the size rounded up to 16) that stay until released: the first
   * hole they fit in, else at the end when that ends at most at `limit` (and RESIDENT_MAX_BYTES);
   * −1 when refused.
   */
  alloc(bytes: number, limit = this.maxResident): number {
    const need = alignedSize(bytes);
    const h = this.holes;
    for (let i = 0; i < h.length; i += 2) {
      if (h[i + 1] < need) continue;
      const off = h[i];
      if (h[i + 1] === need) h.splice(i, 2);
      else {
        h[i] += need;
        h[i + 1] -= need;
      }
      return off;
    }
    const off = (this.used + 15) & ~15;
    if (off + need > Math.min(limit, this.maxResident)) return -1;
    this.ensure(off + need);
    this.used = off + need;
    return off;
  }

  /** Give back `bytes` at `off` (an allocation of that size): a hole, merged with its neighbours; at the end, `used` drops. */
  release(off: number, bytes: number): void {
    const need = alignedSize(bytes);
    const h = this.holes;
    let i = 0;
    while (i < h.length && h[i] < off) i += 2;
    h.splice(i, 0, off, need);
    // merge with the next hole, then with the previous one
    if (i + 2 < h.length && h[i] + h[i + 1] === h[i + 2]) {
      h[i + 1] += h[i + 3];
      h.splice(i + 2, 2);
    }
    if (i >= 2 && h[i - 2] + h[i - 1] === h[i]) {
      h[i - 1] += h[i + 1];
      h.splice(i, 2);
      i -= 2;
    }
    // the last hole reaching the end of the allocations: the end moves down
    const last = h.length - 2;
    if (last >= 0 && h[last] + h[last + 1] >= this.used) {
      this.used = h[last];
      h.length = last;
    }
  }

  /** Bytes in holes below `used` (fragmentation). */
  holeBytes(): number {
    let n = 0;
    for (let i = 1; i < this.holes.length; i += 2) n += this.holes[i];
    return n;
  }

  private readonly ranges = new WeakMap<Float64Array | Uint16Array | Uint8Array, number>();

  /**
   * Offset of a copy of `arr[lo, hi)` held here (a per-document array of the view's range: BM25
   * norms or doc lengths (u16 or u8), QLD log-lengths; or a table: BM25 norms by length), made on first use; −1 when refused. `arr` must not change afterwards
   * (doc-arrays.ts caches them per view and parameters).
   */
  holdRange(arr: Float64Array | Uint16Array | Uint8Array, lo: number, hi: number): number {
    const hit = this.ranges.get(arr);
    if (hit !== undefined) return hit;
    const bytes = (hi - lo) * arr.BYTES_PER_ELEMENT;
    const off = this.alloc(bytes);
    if (off >= 0) {
      new Uint8Array(this.kernel.memory.buffer, off, bytes).set(new Uint8Array(arr.buffer, arr.byteOffset + lo * arr.BYTES_PER_ELEMENT, bytes));
      this.heldBytes += alignedSize(bytes);
    }
    this.ranges.set(arr, off);
    return off;
  }

  /** Make the memory at least `bytes` long (geometric growth: untouched pages cost no RSS). */
  ensure(bytes: number): void {
    const mem = this.kernel.memory;
    const have = mem.buffer.byteLength;
    if (have >= bytes) return;
    const want = Math.max(bytes, Math.min(have * 1.25, have + (256 << 20)));
    mem.grow(Math.ceil((want - have) / WASM_PAGE));
  }

  /** The whole memory as bytes (a fresh view after a growth). */
  bytes(): Uint8Array {
    this.refresh();
    return this.u8v;
  }

  /** The whole memory as 16-bit words. */
  u16(): Uint16Array {
    this.refresh();
    return this.u16v;
  }

  protected retake(b: ArrayBuffer): void {
    this.u8v = new Uint8Array(b);
    this.u16v = new Uint16Array(b);
  }
}

/** An allocation's size as held: rounded up to 16 bytes. */
export const alignedSize = (bytes: number): number => (bytes + 15) & ~15;

const memories = new WeakMap<ScoringView, ViewMemory>();

/** The view's kernel and memory, created on first use (holding at most `maxResident` bytes of its caches). */
export function viewMemory(view: ScoringView, maxResident = RESIDENT_MAX_BYTES): ViewMemory {
  let m = memories.get(view);
  if (!m) memories.set(view, (m = new ViewMemory(maxResident)));
  return m;
}
