/**
 * A preflight (core/llm/preflight.ts) made when the model is first used by a run, not when it is
 * made: `lexcase run <system>` resolves its model before it opens the run dir, and a resume that its
 * run dir refuses (another model, endpoint, seed or config) must send the endpoint nothing. The
 * command defers the check on the models it makes (`deferPreflight`), and the runner makes it once the
 * run dir has accepted the run, before the first item's first request (eval/runner.ts `initLlm`):
 *
 *   const model = deferPreflight(createChatModel(cfg), once(() => preflightLlm(cfg)));
 *   await runDeferredPreflight(model);   // the check's error (LLM_UNAVAILABLE) stops the run; a model with none: nothing
 *
 * Before, the preflight ran first: `run baseline --model other` on a run dir made with another model
 * sent GET /models to the endpoint and only then was refused.
 */

const pending = new WeakMap<object, () => Promise<void>>();

/** `check` (which should run its request once, however often called) is made before `model`'s first use in a run. */
export function deferPreflight<T extends object>(model: T, check: () => Promise<void>): T {
  pending.set(model, check);
  return model;
}

/** The deferred preflight of `model`, if it has one; a model without one resolves at once. */
export async function runDeferredPreflight(model: unknown): Promise<void> {
  const check = model && typeof model === 'object' ? pending.get(model) : undefined;
  if (check) await check();
}
