/**
 * The chat-completions client of a local model: the request the OpenAI client would send
 * (chat-openai.ts builds it, so the cache key, the recording, retries, the concurrency limit and
 * token accounting are the HTTP path's) answered in this process by the loaded model
 * (engine.ts) instead of an endpoint. The reply is converted to a message exactly as a server's.
 */
import { CreateOnlyCompletions } from '../chat-openai.js';
import type { WireRequest } from './chat-request.js';
import { openLocalEngine } from './engine.js';
import type { LocalSettings } from './settings.js';

export class LocalCompletions extends CreateOnlyCompletions {
  constructor(
    fields: ConstructorParameters<typeof CreateOnlyCompletions>[0],
    readonly local: LocalSettings,
  ) {
    super(fields);
  }

  override async completionWithRetry(request: never, requestOptions?: never): Promise<never> {
    const engine = await openLocalEngine(this.local);
    return (await engine.complete(request as WireRequest, (requestOptions as { signal?: AbortSignal } | undefined)?.signal)) as never;
  }
}
