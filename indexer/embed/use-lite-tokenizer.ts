/**
 * The Universal Sentence Encoder lite's SentencePiece tokenizer, giving exactly the ids of the one
 * @energetic-ai/embeddings ships (its `Tokenizer.encode`, tfjs-models' USE tokenizer): NFKC, "▁" for
 * spaces and in front, a best-scoring segmentation over the vocabulary's pieces (ties and a zero
 * score resolved as there), unknown characters as id 0 with runs merged, and the same backtracking
 * by each piece's UTF-16 length. The lattice is relaxed from each start position in order instead
 * of copying the rest of the text per position (the package slices the symbol array at every
 * position), and importing it does not load tfjs. use-lite-tokenizer.test.ts checks the ids on the
 * whole default corpus and every Bar Exam QA question against the package's tokenizer.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useLiteModelDir } from './use-lite-weights.js';

const SEPARATOR = '\u2581';
const RESERVED_SYMBOLS = 6;

interface TrieNode {
  children: Map<string, TrieNode>;
  end: boolean;
  score: number;
  index: number;
}

const node = (): TrieNode => ({ children: new Map(), end: false, score: 0, index: 0 });

export class UseLiteTokenizer {
  private readonly root = node();

  constructor(private readonly vocabulary: ReadonlyArray<readonly [string, number]>) {
    for (let i = RESERVED_SYMBOLS; i < vocabulary.length; i++) {
      let at = this.root;
      for (const ch of vocabulary[i][0]) {
        let next = at.children.get(ch);
        if (!next) at.children.set(ch, (next = node()));
        at = next;
      }
      // A piece listed twice keeps its last score and index, as the package's trie does.
      if (at !== this.root) {
        at.end = true;
        at.score = vocabulary[i][1];
        at.index = i;
      }
    }
  }

  encode(text: string): number[] {
    const normalized = text.normalize('NFKC');
    const input = normalized.length > 0 ? SEPARATOR + normalized.replace(/ /g, SEPARATOR) : normalized;
    const sym = Array.from(input);
    const n = sym.length;
    const best = new Float64Array(n + 1);
    const words = new Int32Array(n + 1);
    // Every piece [i, e) is offered to position e in order of i, as the package's lattice does.
    const offer = (i: number, e: number, score: number, index: number) => {
      const s = score + best[i];
      if (best[e] === 0 || s >= best[e]) {
        best[e] = s;
        words[e] = index;
      }
    };
    for (let i = 0; i < n; i++) {
      let at = this.root.children.get(sym[i]);
      let found = false;
      for (let j = i; j < n && at; j++) {
        if (at.end) {
          found = true;
          offer(i, j + 1, at.score, at.index);
        }
        at = j + 1 < n ? at.children.get(sym[j + 1]) : undefined;
      }
      if (!found) offer(i, i + 1, 0, 0);
    }
    const results: number[] = [];
    for (let at = n; at > 0; at -= this.vocabulary[words[at]][0].length) results.push(words[at]);
    const merged: number[] = [];
    let previousUnknown = false;
    for (const id of results) {
      if (!(previousUnknown && id === 0)) merged.push(id);
      previousUnknown = id === 0;
    }
    return merged.reverse();
  }
}

/** Tokens the model reads of one text: its graph's ClipToMaxLength drops the rest (use-lite-direct.ts reads it from the graph; use-lite-direct.test.ts checks the two agree). */
export const USE_LITE_MAX_TOKENS = 128;

let shared: UseLiteTokenizer | undefined;

/** The tokenizer of the bundled model's vocabulary (vocab.json, read once per process). */
export function sharedUseLiteTokenizer(): UseLiteTokenizer {
  shared ??= new UseLiteTokenizer(JSON.parse(readFileSync(join(useLiteModelDir(), 'vocab.json'), 'utf8')) as Array<[string, number]>);
  return shared;
}
