/**
 * Whether a dense store in object storage (`--dense-uri s3://…`, `gs://…`, `az://…`) can be reached,
 * checked before anything is built for it, and a LanceDB object-store failure as one line. Before, an
 * unreachable endpoint surfaced after the sparse build (and the embedder's load) as one ~1.8 KB
 * "lance error: …" line repeating its cause chain eight times (each "Caused by:" level restating the
 * one below); now `index build … --dense-uri s3://…` stops first, with one line naming the store, the
 * endpoint and the innermost cause ("Connection refused (os error 111)").
 */
import { errors, isLexcaseError } from '../../core/errors.js';
import { isRemoteUri } from './dense-section.js';
import { connectDense } from './lance-table.js';

/** The endpoint an object-store URI is reached at, as LanceDB reads it from the environment: AWS_ENDPOINT for s3:// (else AWS's own), the provider's for the rest. */
export function storeEndpoint(uri: string): string {
  const scheme = uri.slice(0, uri.indexOf('://')).toLowerCase();
  if (scheme === 's3' || scheme === 's3a')
    return process.env.AWS_ENDPOINT ?? process.env.AWS_ENDPOINT_URL ?? `AWS S3${process.env.AWS_REGION ? ` (${process.env.AWS_REGION})` : ''}`;
  if (scheme === 'gs') return process.env.GOOGLE_CLOUD_STORAGE_ENDPOINT ?? 'Google Cloud Storage';
  if (scheme === 'az' || scheme === 'abfss') return process.env.AZURE_STORAGE_ENDPOINT ?? 'Azure Blob Storage';
  return scheme;
}

/**
 * A LanceDB / object-store error message as one line: its innermost cause, with the request that
 * failed and its retries where the chain names them ("Connection refused (os error 111) (list
 * request, after 3 retries)"). A message without a cause chain comes back as its first statement
 * (the "lance error:" prefix and the native source location dropped), whitespace collapsed.
 */
export function lanceErrorLine(message: string): string {
  const parts = message
    .split(/\s*Caused by:\s*/)
    .map((p) =>
      p
        .replace(/,?\s*\/\S+\.rs:\d+:\d+/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter(Boolean);
  if (parts.length < 2) return (parts[0] ?? '').replace(/^lance error:\s*/i, '').replace(/^LanceError\(\w+\):\s*/, '');
  const op = /Error performing (\w+) request/.exec(message)?.[1];
  const retries = /after (\d+) retries/.exec(message)?.[1];
  const what = [op ? `${op} request` : '', retries ? `after ${retries} retries` : ''].filter(Boolean).join(', ');
  return `${parts.at(-1)}${what ? ` (${what})` : ''}`;
}

/** The failure of a dense store at `uri` as one EMBEDDER_UNAVAILABLE error naming the store, its endpoint and the cause once (a lexcase error passes through). */
export function denseStoreError(uri: string, e: unknown): Error {
  if (isLexcaseError(e)) return e;
  return errors.denseStoreUnreachable(uri, storeEndpoint(uri), lanceErrorLine(String((e as Error)?.message ?? e)));
}

/**
 * A remote dense store answers (one listing of its tables), checked before a build does anything for
 * it; a local path is not checked (it is created). Throws denseStoreError's one line.
 */
export async function checkDenseStore(uri: string): Promise<void> {
  if (!isRemoteUri(uri)) return;
  try {
    await (await connectDense(uri)).tableNames({ limit: 1 });
  } catch (e) {
    throw denseStoreError(uri, e);
  }
}
