/**
 * The request limit (`llm.concurrency`) of this process, one per endpoint: every factory model
 * made for the same endpoint (endpoint.ts `endpointIdentity`: the server, and a local model's
 * runtime) with the same `concurrency` shares one limiter, whatever its model name or sampling —
 * 3-ply's evaluator beside its run model, the copy `withPaperDefaults` makes at a system's sampling,
 * the models a library caller makes. Before, each model had its own, so two models on one server
 * kept up to twice `concurrency` requests in flight there (`run threeply` with llm.concurrency 2:
 * 4 at the server).
 */
import pLimit, { type LimitFunction } from 'p-limit';

const limits = new Map<string, LimitFunction>();

/** The limiter of `endpoint` at `concurrency` requests in flight (made on first use). */
export function endpointLimit(endpoint: string, concurrency: number): LimitFunction {
  const key = `${concurrency}\n${endpoint}`;
  let limit = limits.get(key);
  if (!limit) limits.set(key, (limit = pLimit(concurrency)));
  return limit;
}
