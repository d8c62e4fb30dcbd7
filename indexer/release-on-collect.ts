/**
 * A read handle held by an object for its lifetime (a doc store column) is closed when that object
 * is garbage-collected without close() — a store a caller opened and dropped (a library user, a
 * run that opened an index and returned). Node would otherwise close the handle itself at GC and
 * print "Warning: Closing file descriptor N on garbage collection" on whatever was writing to stderr
 * then (in CI: another test's captured output). close() still closes at once, and unregisters.
 */
import type { FileHandle } from 'node:fs/promises';

const registry = new FinalizationRegistry<FileHandle>((fh) => {
  fh.close().catch(() => undefined);
});

/** Close `fh` when `owner` is collected (the registry holds `fh`, so Node never collects it open). */
export function releaseOnCollect(owner: object, fh: FileHandle): void {
  registry.register(owner, fh, owner);
}

/** `owner` closes `fh` itself: forget it. */
export function closeOwned(owner: object, fh: FileHandle): Promise<void> {
  registry.unregister(owner);
  return fh.close();
}
