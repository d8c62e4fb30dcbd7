/**
 * What `buildIndex` accepts from a library user: an array, or any sync or async iterable, of
 * passages where only `id` and `text` are required. `source` defaults to the corpus name, and the
 * corpus name defaults to the index directory's name (see defaultCorpusName).
 */
import { basename } from 'node:path';
import { errors } from '../core/errors.js';
import type { Passage } from '../corpora/types.js';

/**
 * A passage as a user hands it in: `id` and `text` required; `title`, `docId`, `source` and `meta`
 * (JSON fields kept in the doc store, e.g. a LangChain Document's metadata) optional; other fields are ignored.
 */
export type PassageInput = Omit<Passage, 'source'> & { source?: string };

/** An array, a generator, a stream of parsed records — anything `for await` can walk. */
export type PassagesInput<T extends PassageInput = PassageInput> = Iterable<T> | AsyncIterable<T>;

/** Corpus name recorded in the manifest when the caller gives none: the index directory's name. */
export function defaultCorpusName(out: string): string {
  return basename(out) || 'corpus';
}

/** Throw a USAGE error naming the argument unless `input` can be iterated (strings are refused). */
export function checkPassagesInput(input: unknown): asserts input is PassagesInput {
  const ok =
    input !== null &&
    typeof input === 'object' &&
    (typeof (input as Iterable<unknown>)[Symbol.iterator] === 'function' || typeof (input as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function');
  if (!ok) {
    const got = input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input;
    throw errors.usage(
      `buildIndex: passages must be an array or an (async) iterable of {id, text} objects, got ${got}`,
      'e.g. buildIndex([{ id: "p1", text: "..." }], { out: "my-index" })',
    );
  }
}

/** The passage with `source` filled in (the object itself when it already has one). */
export function withSource(p: PassageInput, source: string): Passage {
  return typeof p.source === 'string' ? (p as Passage) : { ...p, source };
}
