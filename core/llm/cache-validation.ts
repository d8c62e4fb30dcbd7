/**
 * Cache entries whose reply failed validation are never served again. The response cache stores a
 * reply when it arrives, before anyone has parsed it; when the caller then finds it malformed
 * (structured.ts: not JSON, the wrong shape, malformed tool-call arguments), the entry would
 * otherwise be served to every later run — a resume "retried" a failed item with 0 requests and
 * failed the same way. The model remembers, per reply message it returns, how to drop the entry it
 * came from (`rememberCacheEntry`); `rejectReply(message)` drops it, so the next identical request
 * goes to the endpoint.
 *
 * Callers drop a malformed reply only when its step fails (structured.ts after the repair retry, an
 * advocate whose compile call failed, a forfeited debate round). A reply whose failure a fallback
 * recovered (the repair retry, an advocate's compile call, a debater's structured brief) stays cached:
 * dropping it made a rerun with a full cache ask again from that point and, against a sampling model,
 * silently change its predictions.
 */
import type { BaseMessage } from '@langchain/core/messages';
import { rmSync } from 'node:fs';

const entries = new WeakMap<object, string>();

/** Remember that `message` is stored in (or was served from) the cache file `file`. */
export function rememberCacheEntry(message: object | undefined, file: string): void {
  if (message && typeof message === 'object') entries.set(message, file);
}

/** `message` failed validation: remove the cache entry it came from (if any); never throws. */
export function rejectReply(message: BaseMessage | object | undefined): void {
  if (!message || typeof message !== 'object') return;
  const file = entries.get(message);
  if (!file) return;
  entries.delete(message);
  try {
    rmSync(file, { force: true });
  } catch {
    /* an entry that cannot be removed is still only a cache entry */
  }
}
